/*
 * OpenAI Responses API input items, as the converters write them. Our own types, so the
 * package needs no OpenAI package; items other than messages and function calls (reasoning,
 * built-in tool calls) are given back as they were read.
 */

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

export interface ResponsesInputImage {
  type: 'input_image';
  image_url: string;
  detail: 'low' | 'high' | 'auto';
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
}

export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** A message item: input roles, an assistant message given back as text, or an assistant output message with its id. */
export type ResponsesMessageItem =
  | {
      type: 'message';
      role: 'system' | 'developer' | 'user';
      content: string | (ResponsesInputText | ResponsesInputImage | ResponsesOtherPart)[];
      id?: string;
      status?: ResponsesItemStatus;
    }
  | { type: 'message'; role: 'assistant'; content: string; phase?: 'commentary' | 'final_answer' }
  | {
      type: 'message';
      role: 'assistant';
      id: string;
      status?: ResponsesItemStatus;
      content: ResponsesOutputText[];
      phase?: 'commentary' | 'final_answer';
    };

export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
  id?: string;
  status?: ResponsesItemStatus;
}

export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | (ResponsesInputText | ResponsesInputImage | ResponsesOtherPart)[];
  id?: string;
  status?: ResponsesItemStatus;
}

/** A content part our Message cannot hold (input_file, input_audio), given back as it was read. */
export interface ResponsesOtherPart {
  type: string;
  [key: string]: unknown;
}

/** An item other than a message or a function call (reasoning, web_search_call, ...), given back as it was read. */
export interface ResponsesOtherItem {
  type: string;
  [key: string]: unknown;
}

/** One item of a Responses API `input`. */
export type ResponsesInputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCall
  | ResponsesFunctionCallOutput
  | ResponsesOtherItem;

/** What the Responses converters keep in `metadata.openaiResponses`. */
export interface ResponsesMetadata {
  /** Set when the system message came from a 'developer' message item, so it is written back as one. */
  role?: 'developer';
  /** The item's id, written back with it. */
  id?: string;
  /** The item's status, kept when it had an id. */
  status?: ResponsesItemStatus;
  /** An assistant message's phase, which newer models want back. */
  phase?: 'commentary' | 'final_answer';
  /** Item ids, statuses and (when writing them again would differ) argument texts of this message's function_call items, by call_id. */
  calls?: Record<
    string,
    {
      /** The function_call item's id. */
      id?: string;
      /** The function_call item's status. */
      status?: ResponsesItemStatus;
      /** The arguments text as given, when writing the parsed arguments again would differ. */
      arguments?: string;
    }
  >;
  /** Items our Message cannot hold that came just before this message (reasoning, built-in tool calls). */
  before?: unknown[];
  /** The same, after the last message. */
  after?: unknown[];
  /** Content parts our Message cannot hold, with their positions. */
  parts?: {
    /** Its index among the parts of the original message. */
    at: number;
    /** The part as it was, unchanged. */
    part: unknown;
  }[];
}

/** The metadata key of the Responses converters. */
export const RESPONSES_METADATA = 'openaiResponses';
