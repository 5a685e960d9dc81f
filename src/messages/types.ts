/**
 * Application data attached to a message. It is never sent to a model. `pinned: true`
 * (set by {@link pinMessage}) keeps the message out of every built-in compaction.
 */
export interface MessageMetadata {
  /** True to keep the message as it is through every built-in compaction. */
  pinned?: boolean;
  [key: string]: unknown;
}

/** A piece of text in a message. */
export interface TextPart {
  /** Marks a text part. */
  type: 'text';
  /** The text itself. */
  text: string;
}

/**
 * An image in a user message or a tool result. `image` is a URL (http(s) or data:),
 * base64 text, or the raw bytes. Give `width` and `height` when you know them: the
 * token estimate then uses the provider's formula instead of reading the image header.
 */
export interface ImagePart {
  /** Marks an image part. */
  type: 'image';
  /** The image: a URL (http(s) or data:), base64 text, or the raw bytes. */
  image: string | URL | Uint8Array;
  /** The MIME type, e.g. 'image/png'; taken from a data: URL or the bytes' header when absent. */
  mediaType?: string;
  /** Width in pixels, for the token estimate. */
  width?: number;
  /** Height in pixels, for the token estimate. */
  height?: number;
  /** OpenAI's detail level; 'low' is a flat 85 tokens. */
  detail?: 'low' | 'high' | 'auto';
}

/** One part of the content of a message: text or an image. */
export type ContentPart = TextPart | ImagePart;

/** A call to a tool, as the model wrote it. `arguments` is the parsed JSON value (usually an object). */
export interface ToolCall {
  /** The call's id, given by the provider; its ToolMessage has it as toolCallId. */
  id: string;
  /** The name of the tool called. */
  name: string;
  /** The arguments: the parsed JSON, or the raw text when it is not JSON (a call cut at the output limit). */
  arguments: unknown;
}

/** The system prompt (or more instructions): never pruned or summarized. */
export interface SystemMessage {
  /** Marks a system message. */
  role: 'system';
  /** The instructions. */
  content: string;
  /** Your data about the message; never sent to the model. */
  metadata?: MessageMetadata;
}

/** What the user (or the application) says: text, or text and images. */
export interface UserMessage {
  /** Marks a user message. */
  role: 'user';
  /** The text, or a list of text and image parts. */
  content: string | ContentPart[];
  /** Your data about the message; never sent to the model. */
  metadata?: MessageMetadata;
}

/** What the model wrote: its text and the tool calls it made (each answered by a ToolMessage right after it). */
export interface AssistantMessage {
  /** Marks an assistant message. */
  role: 'assistant';
  /** The text the model wrote; '' when it only called tools. */
  content: string | TextPart[];
  /** The tool calls of the reply, in order; absent when it made none. */
  toolCalls?: ToolCall[];
  /** Your data about the message; never sent to the model. */
  metadata?: MessageMetadata;
}

/** The result of one tool call. It follows the assistant message that holds the call. */
export interface ToolMessage {
  /** Marks a tool result. */
  role: 'tool';
  /** The id of the call this answers (ToolCall.id). */
  toolCallId: string;
  /** The tool's name, for markers and summaries; the call's own name is used when absent. */
  toolName?: string;
  /** The result as sent to the model: text, or text and image parts. */
  content: string | ContentPart[];
  /** True when the tool failed or its arguments were invalid; the content says why. */
  isError?: boolean;
  /** Your data about the message; never sent to the model. */
  metadata?: MessageMetadata;
}

/** One message of a transcript. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message: system, user, assistant or tool. */
export type MessageRole = Message['role'];
