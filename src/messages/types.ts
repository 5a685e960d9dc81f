/**
 * Application data attached to a message. It is never sent to a model. `pinned: true`
 * (set by {@link pinMessage}) keeps the message out of every built-in compaction.
 */
export interface MessageMetadata {
  pinned?: boolean;
  [key: string]: unknown;
}

/** A piece of text in a message. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * An image in a user message or a tool result. `image` is a URL (http(s) or data:),
 * base64 text, or the raw bytes. Give `width` and `height` when you know them: the
 * token estimate then uses the provider's formula instead of reading the image header.
 */
export interface ImagePart {
  type: 'image';
  image: string | URL | Uint8Array;
  mediaType?: string;
  width?: number;
  height?: number;
  /** OpenAI's detail level; 'low' is a flat 85 tokens. */
  detail?: 'low' | 'high' | 'auto';
}

/** One part of the content of a message: text or an image. */
export type ContentPart = TextPart | ImagePart;

/** A call to a tool, as the model wrote it. `arguments` is the parsed JSON value (usually an object). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** The system prompt (or more instructions): never pruned or summarized. */
export interface SystemMessage {
  role: 'system';
  content: string;
  metadata?: MessageMetadata;
}

/** What the user (or the application) says: text, or text and images. */
export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  metadata?: MessageMetadata;
}

/** What the model wrote: its text and the tool calls it made (each answered by a ToolMessage right after it). */
export interface AssistantMessage {
  role: 'assistant';
  /** The text the model wrote; '' when it only called tools. */
  content: string | TextPart[];
  toolCalls?: ToolCall[];
  metadata?: MessageMetadata;
}

/** The result of one tool call. It follows the assistant message that holds the call. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  /** The tool's name, for markers and summaries; the call's own name is used when absent. */
  toolName?: string;
  content: string | ContentPart[];
  /** True when the tool failed or its arguments were invalid; the content says why. */
  isError?: boolean;
  metadata?: MessageMetadata;
}

/** One message of a transcript. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The role of a message: system, user, assistant or tool. */
export type MessageRole = Message['role'];
