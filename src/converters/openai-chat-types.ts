/*
 * OpenAI Chat Completions messages, as the converters write them. The types are our own,
 * so the package needs no OpenAI package; they are assignable to the openai SDK's
 * ChatCompletionMessageParam.
 */

/** A text content part. */
export interface OpenAIChatTextPart {
  /** Marks a text part. */
  type: 'text';
  /** The text: read as one of our text parts. */
  text: string;
}

/** An image content part, in a user message. */
export interface OpenAIChatImagePart {
  /** Marks an image part. */
  type: 'image_url';
  /** The image and how closely the model looks at it. */
  image_url: {
    /** An http(s) URL, or a data: URL (what bytes and base64 images are written as). */
    url: string;
    /** The detail level the model sees the image at ('auto' is OpenAI's default); absent when our part has none. */
    detail?: 'low' | 'high' | 'auto';
  };
}

/** One tool call of an assistant message. */
export interface OpenAIChatToolCall {
  /** The call's id (e.g. `call_...`), which the tool message answering it names as `tool_call_id`. */
  id: string;
  /** Marks a function call, the only kind that converts. */
  type: 'function';
  /** The function called and its arguments. */
  function: {
    /** The name of the function called, one of the request's `tools`. */
    name: string;
    /** The arguments as JSON text; the text read is kept when writing the parsed arguments again would differ. */
    arguments: string;
  };
}

/** A system or developer message: instructions to the model. */
export interface OpenAIChatSystemMessage {
  /** 'system', or 'developer' (its name for newer models): read as our system message, written back as it was. */
  role: 'system' | 'developer';
  /** The instructions (text parts read are joined with newlines). */
  content: string;
  /** A participant name, kept in `metadata.openai`; absent when the message had none. */
  name?: string;
}

/** A user message. */
export interface OpenAIChatUserMessage {
  /** Marks a user message. */
  role: 'user';
  /** The text, or text and image_url parts. */
  content: string | (OpenAIChatTextPart | OpenAIChatImagePart)[];
  /** A participant name, kept in `metadata.openai`; absent when the message had none. */
  name?: string;
}

/** An assistant message: its text and the tools it calls. */
export interface OpenAIChatAssistantMessage {
  /** Marks an assistant message. */
  role: 'assistant';
  /** null when the message only calls tools. */
  content: string | OpenAIChatTextPart[] | null;
  /** The tools the assistant calls; absent when it calls none. */
  tool_calls?: OpenAIChatToolCall[];
  /** A participant name, kept in `metadata.openai`; absent when the message had none. */
  name?: string;
}

/** A tool's result, answering one tool call. */
export interface OpenAIChatToolMessage {
  /** Marks a tool result. */
  role: 'tool';
  /** The `id` of the tool call this result answers. */
  tool_call_id: string;
  /** The result as text or text parts (an image becomes a note: tool messages carry text only). */
  content: string | OpenAIChatTextPart[];
  /** Written only when the message was read with one: OpenAI itself rejects it, some compatible servers want it. */
  name?: string;
}

/** One Chat Completions message. */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage;

/** What the OpenAI chat converters keep in `metadata.openai`: what our Message has no field for. */
export interface OpenAIChatMetadata {
  /** The `name` of the message (a participant's, or on a tool message the tool's, as some servers send it). */
  name?: string;
  /** 'developer' when the message was a developer message (read as a system message). */
  role?: 'developer';
  /** The JSON text of tool-call arguments, by call id, when writing them again would give other text. */
  arguments?: Record<string, string>;
}

/** The metadata key of the OpenAI chat converters. */
export const OPENAI_CHAT_METADATA = 'openai';
