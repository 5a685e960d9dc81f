import type { ToolCall } from '../messages/types.js';
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
  finishReason: FinishReason;
  usage: Usage;
  /** The model that answered, when the provider said so (a dated snapshot, for instance). */
  modelId?: string;
}

/** One piece of a streamed reply. The stream ends with exactly one `finish` part. */
export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; modelId?: string };
