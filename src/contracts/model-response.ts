import type { AssistantPart, ProviderCompactionPart, ReasoningPart, TextPart, ToolCall } from '../messages/types.js';
import type { Usage } from './usage.js';

/**
 * Why the model stopped: `'stop'` it finished, `'tool-calls'` it called tools, `'length'`
 * the reply was cut at maxOutputTokens, `'content-filter'` the provider withheld it, `'other'` anything else.
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/** The whole reply to one call. */
export interface ModelResponse {
  /** The reply's text ('' when it only called tools). */
  text: string;
  /** The tool calls of the reply, in order. */
  toolCalls: ToolCall[];
  /** Why the model stopped. */
  finishReason: FinishReason;
  /** The tokens the provider reported for the call; a count it did not report is undefined. */
  usage: Usage;
  /** The model that answered, when the provider said so (a dated snapshot, for instance). */
  modelId?: string;
  /**
   * The reply's content in order when it holds more than text: reasoning (with its signature
   * or encrypted content) and provider-side compactions beside the text parts. The step loop
   * stores it as the assistant message's content, so the provider gets it back unchanged.
   * Absent when the reply is text only.
   */
  parts?: AssistantPart[];
}

/** One piece of a streamed reply. The stream ends with exactly one `finish` part. */
export type ModelStreamPart =
  | {
      /** Marks a piece of the reply's text. */
      type: 'text-delta';
      /** The new text only; the pieces joined make the reply's text. */
      text: string;
    }
  | {
      /** Marks a tool call, complete with its parsed arguments. */
      type: 'tool-call';
      /** The call as the model wrote it. */
      toolCall: ToolCall;
    }
  | {
      /** Marks a piece of the model's reasoning as it shows it (a summary for OpenAI). */
      type: 'reasoning-delta';
      /** The new reasoning text only. */
      text: string;
    }
  | {
      /**
       * Marks a whole reasoning or provider-compaction part, or a text part that is not answer
       * text (a Responses message whose phase is 'commentary'), in its place among the reply's parts.
       */
      type: 'content-part';
      /** The part, complete with its signature, encrypted content or phase. */
      part: ReasoningPart | ProviderCompactionPart | TextPart;
    }
  | {
      /** Marks the end of the reply: the stream's last part. */
      type: 'finish';
      /** Why the model stopped. */
      finishReason: FinishReason;
      /** The tokens the provider reported for the call. */
      usage: Usage;
      /** The model that answered, when the provider said so. */
      modelId?: string;
    };
