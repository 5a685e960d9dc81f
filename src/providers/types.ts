import type { Message, ToolCall } from '../messages/types.js';

/** A JSON Schema object, as sent to the provider. */
export type JSONSchema = Record<string, unknown>;

/** A tool as the model sees it: its name, what it does and the JSON schema of its arguments. */
export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: JSONSchema;
}

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
  /** Most tokens the reply may have. */
  maxOutputTokens?: number;
  temperature?: number;
  /** Aborts the HTTP request (and stream) when it fires. */
  abortSignal?: AbortSignal;
}

/**
 * Token counts a provider reported for one call. Unknown is `undefined`, never zero.
 */
export interface Usage {
  /** Prompt tokens, cached ones included. */
  inputTokens: number | undefined;
  /** Reply tokens, reasoning included. */
  outputTokens: number | undefined;
  /** Prompt tokens served from the provider's prompt cache (a part of inputTokens). */
  cachedInputTokens: number | undefined;
}

/**
 * Why the model stopped: `'stop'` it finished, `'tool-calls'` it called tools, `'length'`
 * the reply was cut at maxOutputTokens, `'content-filter'` the provider withheld it, `'other'` anything else.
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/** The whole reply to one call. */
export interface ModelResponse {
  /** The reply's text ('' when it only called tools). */
  text: string;
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

/**
 * A model the runtime can call. Built-in providers come from `resolveProvider('vendor/model')`;
 * `mockModel()` in `@lousho/build-ai-agent/testing` is a scripted one.
 */
export interface LLMProvider {
  /** The vendor, e.g. 'openai', 'anthropic', 'ollama', 'mock'. */
  readonly provider: string;
  /** The model id sent to the vendor, e.g. 'gpt-4o-mini'. */
  readonly modelId: string;
  /** Sends one request and resolves to the whole reply. */
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** Sends one request and yields the reply as it arrives. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
  /**
   * The context window the serving side runs the model with, when it can tell (a local
   * server's loaded context length). Used only when neither the user nor the registry gives one.
   */
  contextWindow?(): Promise<number | undefined>;
}

/** `"provider/model"` string or a provider object. */
export type ModelSpec = string | LLMProvider;
