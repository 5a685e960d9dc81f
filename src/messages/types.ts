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
  /**
   * Which of the model's messages the text was (OpenAI Responses' `phase`, gpt-5.3-codex and
   * later): 'commentary' the progress notes it writes between tool calls, 'final_answer' the
   * answer. Sent back as it came; absent for models that do not say.
   */
  phase?: 'commentary' | 'final_answer';
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

/**
 * Reasoning the model did before it answered: an Anthropic thinking or redacted_thinking
 * block, an OpenAI Responses reasoning item, an AI SDK reasoning part. It is sent back
 * unchanged (signature and encrypted content included) to the provider that wrote it, which
 * may require it on the next request of a tool-using turn, and never to another provider.
 */
export interface ReasoningPart {
  /** Marks a reasoning part. */
  type: 'reasoning';
  /** The reasoning as the provider showed it (OpenAI shows a summary); '' when it is only encrypted. */
  text: string;
  /** The signature of an Anthropic thinking block, which must come back with it unchanged. */
  signature?: string;
  /** Opaque reasoning: an Anthropic redacted_thinking block's data, an OpenAI reasoning item's encrypted_content. */
  encrypted?: string;
  /** The provider that wrote it, e.g. 'anthropic' or 'openai'; reasoning goes back only to that provider. */
  provider?: string;
  /** The provider's id for it (an OpenAI reasoning item's id). */
  id?: string;
}

/**
 * A compaction the provider made on its side: an Anthropic compaction block, an OpenAI
 * Responses compaction item. It stands for everything before its message, which the
 * provider no longer reads, so that part of the transcript is not counted.
 */
export interface ProviderCompactionPart {
  /** Marks a provider-side compaction. */
  type: 'compaction';
  /** The summary the provider wrote, when it is readable (Anthropic's compaction block). */
  text?: string;
  /** Opaque content the provider reads back (an OpenAI compaction item's encrypted_content). */
  encrypted?: string;
  /** The signature of an Anthropic compaction block written on demand, which must come back with it unchanged. */
  signature?: string;
  /** The provider that made it, e.g. 'anthropic' or 'openai'. */
  provider?: string;
  /** The provider's id for it. */
  id?: string;
}

/** One part of an assistant message's content: text, reasoning, or a provider-side compaction. */
export type AssistantPart = TextPart | ReasoningPart | ProviderCompactionPart;

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
  /**
   * The text the model wrote ('' when it only called tools), or its parts: text, the
   * reasoning before it, a compaction the provider made.
   */
  content: string | AssistantPart[];
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
