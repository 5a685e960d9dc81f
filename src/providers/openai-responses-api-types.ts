// The Responses API wire format (POST /v1/responses, /v1/responses/compact) as this provider
// writes and reads it: our own types, so the package does not depend on the SDK's.

/** A content part of an input message. */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'low' | 'high' | 'auto' };

/** A message of the input: the system prompt, a user turn, or an earlier reply's text. */
export interface ResponsesInputMessage {
  type: 'message';
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string | ResponsesInputContent[];
  /** An assistant message's phase, sent back as the model wrote it (see TextPart.phase). */
  phase?: 'commentary' | 'final_answer';
}

/** A reasoning item: sent back unchanged (with its encrypted content) in the next request. */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string | null;
}

/** A compaction item: everything before it, compacted by the API; only the API reads it. */
export interface ResponsesCompactionItem {
  type: 'compaction';
  encrypted_content: string;
  id?: string;
}

/** A call of one of the request's function tools. */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** A tool's result, answering the function_call with the same call_id. */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | ResponsesInputContent[];
}

/** One item of a request's `input`. */
export type ResponsesInputItem =
  | ResponsesInputMessage
  | ResponsesReasoningItem
  | ResponsesCompactionItem
  | ResponsesFunctionCall
  | ResponsesFunctionCallOutput;

/** A function tool of the request. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** The body of one POST /v1/responses (without `stream`). */
export interface ResponsesRequestBody {
  model: string;
  input: ResponsesInputItem[];
  store: boolean;
  tools?: ResponsesFunctionTool[];
  max_output_tokens?: number;
  temperature?: number;
  reasoning?: { effort?: string; summary?: string };
  include?: string[];
  text?: { format: { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict: boolean } };
  prompt_cache_key?: string;
  /** How long OpenAI keeps the prompt cache: 'in_memory' (its default) or '24h' (extended retention). */
  prompt_cache_retention?: 'in_memory' | '24h';
  /** Server-side compaction settings, passed through from the provider's options. */
  context_management?: unknown;
}

/** The body of one POST /v1/responses/compact. */
export interface ResponsesCompactBody {
  model: string;
  input: ResponsesInputItem[];
  instructions?: string;
  prompt_cache_key?: string;
}

/** The usage of a response (or of a compaction). */
export interface ResponsesUsage {
  input_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens?: number | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** An item of a response's `output` (only what this library reads; other item types are skipped). */
export interface ResponsesOutputItem {
  type: string;
  id?: string;
  role?: string;
  /** A message's phase on the models that write one: 'commentary' or 'final_answer'. */
  phase?: string | null;
  /** A message's content: output_text and refusal parts (input_text in a compacted window's user messages). */
  content?: { type: string; text?: string; refusal?: string; image_url?: string; detail?: string }[] | string;
  /** A reasoning item's summary parts. */
  summary?: { type: string; text?: string }[];
  /** A reasoning or compaction item's opaque content. */
  encrypted_content?: string | null;
  /** A function_call's fields. */
  call_id?: string;
  name?: string;
  arguments?: string;
  /** A function_call_output's result (in a compacted window). */
  output?: unknown;
}

/** An error a response reports (response.failed, or a 200 whose status is failed). */
export interface ResponsesError {
  code?: string | null;
  message?: string | null;
  type?: string | null;
  param?: string | null;
}

/** A whole response (the non-streaming reply, and the `response` of lifecycle events). */
export interface ResponsesResponse {
  id?: string;
  model?: string;
  status?: string | null;
  output?: ResponsesOutputItem[] | null;
  usage?: ResponsesUsage | null;
  error?: ResponsesError | null;
  incomplete_details?: { reason?: string | null } | null;
}

/** What /v1/responses/compact answers. */
export interface ResponsesCompacted {
  id?: string;
  object?: string;
  output?: ResponsesOutputItem[] | null;
  usage?: ResponsesUsage | null;
}

/** One event of a streamed response (only the fields this library reads). */
export interface ResponsesStreamEvent {
  type: string;
  response?: ResponsesResponse;
  item?: ResponsesOutputItem;
  output_index?: number;
  item_id?: string;
  delta?: string;
  /** An `error` event's fields: flat in the API reference, nested under `error` in some streams. */
  code?: string | null;
  message?: string | null;
  param?: string | null;
  error?: ResponsesError | null;
}
