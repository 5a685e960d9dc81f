import type { Message } from '../messages/types.js';
import type { JSONSchema } from './json-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/** One call to a model. */
export interface ModelRequest {
  /** The model id, e.g. 'gpt-4o'; used for the context-window lookup and the token estimator. */
  model: string;
  /** The transcript, the system prompt included. `metadata` is never sent. */
  messages: Message[];
  /** The tools the model may call. */
  tools?: ToolDefinition[];
  /** When set, the model must answer with JSON matching this schema. */
  outputSchema?: JSONSchema;
  /** Most tokens the reply may have (the run-wide budget is `limits.maxTokens`). */
  maxOutputTokens?: number;
  /** Sampling temperature, when the model takes one. */
  temperature?: number;
  /** Aborts the HTTP request (and stream) when it fires. */
  abortSignal?: AbortSignal;
}
