import type { ModelStreamPart } from '../contracts/model-response.js';
import type { OpenAICallContext } from './openai-error.js';
import type { ResponsesResponse, ResponsesStreamEvent } from './openai-responses-api-types.js';
import { responsesFailure } from './openai-responses-error.js';
import {
  messagePhase,
  responsesFinishReason,
  responsesMessageText,
  responsesNativePart,
  responsesToolCall,
  responsesUsage,
} from './openai-responses-reply.js';

/**
 * Turns the events of a streamed response into stream parts: text and reasoning-summary
 * deltas as they come (a message whose phase is 'commentary' as one text part with that phase
 * when it is done, never as answer text); each function call, reasoning item and compaction item whole when
 * its output_item.done arrives; the finish part from finish() once response.completed (or
 * response.incomplete) arrived. A response.failed or error event throws its error,
 * classified by its code.
 */
export class ResponsesStreamParser {
  private response: ResponsesResponse | undefined;
  private model: string | undefined;
  private toolCalls = 0;
  private refused = false;
  /** Whether a message item's text already streamed as deltas (else its done item carries it). */
  private readonly streamedText = new Set<string>();
  /** The message items whose phase is 'commentary': their text comes whole as a part of its own, not as answer text. */
  private readonly commentary = new Set<string>();
  /** True once response.completed or response.incomplete arrived. */
  ended = false;

  constructor(
    private readonly provider: string,
    private readonly call: OpenAICallContext,
  ) {}

  accept(event: ResponsesStreamEvent): ModelStreamPart[] {
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        this.model ??= event.response?.model;
        return [];
      case 'response.output_item.added':
        if (event.item?.type === 'message' && messagePhase(event.item) === 'commentary')
          this.commentary.add(event.item.id ?? '');
        return [];
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (this.commentary.has(event.item_id ?? '')) return [];
        if (event.type === 'response.refusal.delta') this.refused = true;
        this.streamedText.add(event.item_id ?? '');
        return event.delta ? [{ type: 'text-delta', text: event.delta }] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return event.delta ? [{ type: 'reasoning-delta', text: event.delta }] : [];
      case 'response.reasoning_summary_part.added':
        // Summary parts after the first are separate paragraphs.
        return (event as { summary_index?: number }).summary_index ? [{ type: 'reasoning-delta', text: '\n\n' }] : [];
      case 'response.output_item.done':
        return this.itemDone(event);
      case 'response.completed':
      case 'response.incomplete':
        this.response = event.response;
        this.model = event.response?.model ?? this.model;
        this.ended = true;
        return [];
      case 'response.failed':
        throw responsesFailure(event.response?.error, this.call);
      case 'error':
        throw responsesFailure(event.error ?? event, this.call);
      default:
        return [];
    }
  }

  /** The finish part: the finish reason and usage of the response's last event. */
  finish(): Extract<ModelStreamPart, { type: 'finish' }> {
    return {
      type: 'finish',
      finishReason: responsesFinishReason(this.response, this.toolCalls, this.refused),
      usage: responsesUsage(this.response?.usage),
      ...(this.model === undefined ? {} : { modelId: this.model }),
    };
  }

  private itemDone(event: ResponsesStreamEvent): ModelStreamPart[] {
    const item = event.item;
    if (item === undefined) return [];
    if (item.type === 'function_call')
      return [{ type: 'tool-call', toolCall: responsesToolCall(item, this.toolCalls++) }];
    if (item.type === 'message' && (this.commentary.has(item.id ?? '') || messagePhase(item) === 'commentary')) {
      const { text } = responsesMessageText(item);
      return text === '' ? [] : [{ type: 'content-part', part: { type: 'text', text, phase: 'commentary' } }];
    }
    if (item.type === 'message') {
      // A server that sends the message whole, without deltas.
      if (this.streamedText.has(item.id ?? '') || this.streamedText.has('')) return [];
      const message = responsesMessageText(item);
      this.refused ||= message.refused;
      return message.text === '' ? [] : [{ type: 'text-delta', text: message.text }];
    }
    const part = responsesNativePart(item, this.provider);
    return part === undefined ? [] : [{ type: 'content-part', part }];
  }
}
