import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { AssistantPart } from '../messages/types.js';

/**
 * Builds the whole reply from the parts of a stream: the text, the tool calls, the
 * reasoning and compaction parts in their places among the text, and the finish part's
 * reason and usage. One assembler for every consumer of a stream.
 */
export class ReplyAssembler {
  private text = '';
  private readonly toolCalls: ModelResponse['toolCalls'] = [];
  private readonly parts: AssistantPart[] = [];
  private richParts = false;
  private finish: Extract<ModelStreamPart, { type: 'finish' }> | undefined;

  /** Takes the next part of the stream. */
  accept(part: ModelStreamPart): void {
    switch (part.type) {
      case 'text-delta': {
        this.text += part.text;
        const last = this.parts[this.parts.length - 1];
        // A text part with a phase (a commentary) is whole: answer text starts a part of its own.
        if (last?.type === 'text' && last.phase === undefined) last.text += part.text;
        else this.parts.push({ type: 'text', text: part.text });
        return;
      }
      case 'tool-call':
        this.toolCalls.push(part.toolCall);
        return;
      case 'content-part':
        this.parts.push(part.part);
        this.richParts = true;
        return;
      case 'reasoning-delta':
        return;
      default:
        this.finish = part;
    }
  }

  /** The reply; `where` names the model in the error of a stream that ended without a finish part. */
  response(where: string): ModelResponse {
    const finish = this.finish;
    if (finish === undefined) {
      throw new LoushoError('LOUSHO_PROVIDER_FAILED', `The stream of ${where} ended without a finish part.`);
    }
    return {
      text: this.text,
      toolCalls: this.toolCalls,
      finishReason: finish.finishReason,
      usage: finish.usage,
      ...(finish.modelId === undefined ? {} : { modelId: finish.modelId }),
      ...(this.richParts ? { parts: this.parts } : {}),
    };
  }
}
