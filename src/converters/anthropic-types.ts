/*
 * Anthropic Messages API messages, as the converters write them. Our own types, so the
 * package needs no Anthropic package; they are assignable to the SDK's MessageParam.
 */

export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicTextBlockParam {
  type: 'text';
  text: string;
}

export interface AnthropicImageBlockParam {
  type: 'image';
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string };
}

export interface AnthropicToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  /** The arguments: always an object. */
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | (AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicOtherBlock)[];
  is_error?: boolean;
}

/** A block our Message cannot hold (thinking, documents, server tool blocks), given back as it was read. */
export interface AnthropicOtherBlock {
  type: string;
  [key: string]: unknown;
}

export type AnthropicContentBlock =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResultBlockParam
  | AnthropicOtherBlock;

/** One message of a Messages API `messages` array. */
export interface AnthropicMessageParam {
  /** Who speaks; tool results are user messages in this API. */
  role: 'user' | 'assistant';
  /** The text, or content blocks (text, image, tool_use, tool_result, others). */
  content: string | AnthropicContentBlock[];
}

/** A Messages API transcript: the system prompt apart from the messages. */
export interface AnthropicTranscript {
  /** The system prompt, a string or text blocks; absent when the transcript does not start with a system message. */
  system?: string | AnthropicTextBlockParam[];
  /** The user and assistant messages, in order. */
  messages: AnthropicMessageParam[];
}

/** What the Anthropic converters keep in `metadata.anthropic`: blocks our Message cannot hold, with their positions. */
export interface AnthropicMetadata {
  /** Content blocks our Message cannot hold (thinking, documents, server tool blocks), with their positions. */
  parts?: {
    /** Its index among the parts of the original message. */
    at: number;
    /** The part as it was, unchanged. */
    part: unknown;
  }[];
}

/** The metadata key of the Anthropic converters. */
export const ANTHROPIC_METADATA = 'anthropic';

/** The image types the Messages API accepts. */
export const ANTHROPIC_IMAGE_TYPES: readonly AnthropicImageMediaType[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
];
