/*
 * OpenAI Chat Completions messages, as the converters write them. The types are our own,
 * so the package needs no OpenAI package; they are assignable to the openai SDK's
 * ChatCompletionMessageParam.
 */

export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
}

export interface OpenAIChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'low' | 'high' | 'auto' };
}

export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIChatSystemMessage {
  role: 'system' | 'developer';
  content: string;
  name?: string;
}

export interface OpenAIChatUserMessage {
  role: 'user';
  content: string | (OpenAIChatTextPart | OpenAIChatImagePart)[];
  name?: string;
}

export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  /** null when the message only calls tools. */
  content: string | OpenAIChatTextPart[] | null;
  tool_calls?: OpenAIChatToolCall[];
  name?: string;
}

export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
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
