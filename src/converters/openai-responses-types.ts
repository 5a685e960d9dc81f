/*
 * OpenAI Responses API input items, as the converters write them. Our own types, so the
 * package needs no OpenAI package; items other than messages and function calls (reasoning,
 * built-in tool calls) are given back as they were read.
 */

import type { CarriedPart } from './carried-parts.js';

/** A text part of an input message or a function_call_output. */
export interface ResponsesInputText {
  /** Marks an input text part. */
  type: 'input_text';
  /** The text: read as one of our text parts. */
  text: string;
}

/** An image part of a user message or a function_call_output. */
export interface ResponsesInputImage {
  /** Marks an input image part. */
  type: 'input_image';
  /** An http(s) URL, or a data: URL (what bytes and base64 images are written as). */
  image_url: string;
  /** The detail level the model sees the image at: written 'auto' when our part has none; 'auto' is read as none. */
  detail: 'low' | 'high' | 'auto';
}

/** A text part of an assistant output message (one that kept its item id). */
export interface ResponsesOutputText {
  /** Marks an output text part. */
  type: 'output_text';
  /** The text: read as one of our text parts. */
  text: string;
  /** Citations and other notes on the text: written empty, and not kept when read. */
  annotations: unknown[];
}

/** The status of an item: 'in_progress', 'completed' or 'incomplete'; kept only for an item with an id. */
export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** A message item: input roles, an assistant message given back as text, or an assistant output message with its id. */
export type ResponsesMessageItem =
  | {
      /** Marks a message item. */
      type: 'message';
      /** 'system' or 'developer' (both read as our system message), or 'user'. */
      role: 'system' | 'developer' | 'user';
      /** The text, or input_text and input_image parts (and parts kept from reading, e.g. input_file). */
      content: string | (ResponsesInputText | ResponsesInputImage | ResponsesOtherPart)[];
      /** The item's id, written back when it was read with one. */
      id?: string;
      /** The item's status, written back with its id. */
      status?: ResponsesItemStatus;
    }
  | {
      /** Marks a message item. */
      type: 'message';
      /** Marks an assistant message, written as one string when it kept no item id. */
      role: 'assistant';
      /** The assistant's text, its text parts joined. */
      content: string;
      /** 'commentary' or 'final_answer', as it was read; absent when it had none. */
      phase?: 'commentary' | 'final_answer';
    }
  | {
      /** Marks a message item. */
      type: 'message';
      /** Marks an assistant output message, written so when it kept its item id. */
      role: 'assistant';
      /** The output message's item id (e.g. `msg_...`). */
      id: string;
      /** The item's status, when it was read with one. */
      status?: ResponsesItemStatus;
      /** The text, one output_text part per text part of ours. */
      content: ResponsesOutputText[];
      /** 'commentary' or 'final_answer', as it was read; absent when it had none. */
      phase?: 'commentary' | 'final_answer';
    };

/** A function_call item: one tool call of the assistant, after its message. */
export interface ResponsesFunctionCall {
  /** Marks a function call. */
  type: 'function_call';
  /** The call's id (e.g. `call_...`), which the function_call_output answering it names. */
  call_id: string;
  /** The name of the function called, one of the request's `tools`. */
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
  /** The item's own id (e.g. `fc_...`), not the call_id; written back when it was read with one. */
  id?: string;
  /** The item's status, written back with its id. */
  status?: ResponsesItemStatus;
}

/** A function_call_output item: a tool's result. */
export interface ResponsesFunctionCallOutput {
  /** Marks a tool result. */
  type: 'function_call_output';
  /** The `call_id` of the function_call this result answers. */
  call_id: string;
  /** The result: text, or input_text and input_image parts (and parts kept from reading, e.g. input_file). */
  output: string | (ResponsesInputText | ResponsesInputImage | ResponsesOtherPart)[];
  /** The item's id, written back when it was read with one. */
  id?: string;
  /** The item's status, written back with its id. */
  status?: ResponsesItemStatus;
}

/** A content part our Message cannot hold (input_file, input_audio), given back as it was read. */
export interface ResponsesOtherPart {
  /** The part's type, e.g. 'input_file' or 'input_audio'. */
  type: string;
  [key: string]: unknown;
}

/** An item other than a message or a function call (reasoning, web_search_call, ...), given back as it was read. */
export interface ResponsesOtherItem {
  /** The item's type, e.g. 'reasoning', 'web_search_call', 'file_search_call'. */
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
  parts?: CarriedPart[];
}

/** The metadata key of the Responses converters. */
export const RESPONSES_METADATA = 'openaiResponses';
