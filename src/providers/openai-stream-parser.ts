import type { FinishReason, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import { openAIFinishReason } from './openai-finish-reason.js';
import { type OpenAIChatUsage, openAIUsage } from './openai-usage.js';

/** One chunk of a streamed chat completion (only what this library reads). */
export interface OpenAIChatChunk {
  model?: string;
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: OpenAIChatUsage | null;
}

/**
 * Turns the chunks of a streamed chat completion into stream parts: text deltas as they
 * come; the tool calls, whose names and arguments arrive in pieces, and the finish part
 * from end() once the stream is over.
 */
export class OpenAIStreamParser {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();
  private usage: Usage = { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined };
  private model: string | undefined;
  /** Set once a chunk carried a finish_reason; a stream that ends without one is incomplete. */
  finishReason: FinishReason | undefined;

  accept(chunk: OpenAIChatChunk): ModelStreamPart[] {
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = openAIUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (choice === undefined) return [];
    for (const delta of choice.delta?.tool_calls ?? []) {
      const call = this.calls.get(delta.index) ?? { name: '', args: '' };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
      this.calls.set(delta.index, call);
    }
    if (choice.finish_reason) this.finishReason = openAIFinishReason(choice.finish_reason);
    const text = choice.delta?.content;
    return text ? [{ type: 'text-delta', text }] : [];
  }

  /** The tool calls in index order, then the finish part (call it when finishReason is set). */
  end(finishReason: FinishReason): ModelStreamPart[] {
    const parts: ModelStreamPart[] = [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, call]) => ({
        type: 'tool-call',
        toolCall: { id: call.id ?? `call_${index}`, name: call.name, arguments: parseToolArguments(call.args) },
      }));
    parts.push({
      type: 'finish',
      finishReason,
      usage: this.usage,
      ...(this.model === undefined ? {} : { modelId: this.model }),
    });
    return parts;
  }
}
