/*
 * Anthropic Messages API messages, as the converters write them. Our own types, so the
 * package needs no Anthropic package; they are assignable to the SDK's MessageParam.
 */

import type { CarriedPart } from './carried-parts.js';

/** The image types a base64 image source may have: JPEG, PNG, GIF or WebP. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** A text block, in a message's content or in `system`. */
export interface AnthropicTextBlockParam {
  /** Marks a text block. */
  type: 'text';
  /** The text: read as one of our text parts, or (in `system`) as one system message. */
  text: string;
}

/** An image block (in user messages and tool results): base64 data with its type, or a URL. */
export interface AnthropicImageBlockParam {
  /** Marks an image block. */
  type: 'image';
  /** Where the image is: base64 data with its media type, or an http(s) URL. */
  source:
    | {
        /** Marks an image given inline, as base64. */
        type: 'base64';
        /** The image's type: the part's or data: URL's (`image/jpg` read as `image/jpeg`), else read from the bytes. */
        media_type: AnthropicImageMediaType;
        /** The image bytes as base64, without a `data:` prefix. */
        data: string;
      }
    | {
        /** Marks an image given by URL. */
        type: 'url';
        /** The http(s) URL of the image, which the API fetches. */
        url: string;
      };
}

/** An assistant's call of a tool; read as one of our tool calls. */
export interface AnthropicToolUseBlockParam {
  /** Marks a tool call. */
  type: 'tool_use';
  /** The call's id (e.g. `toolu_...`), which the tool_result block answering it names as `tool_use_id`. */
  id: string;
  /** The name of the tool called, one of the request's `tools`. */
  name: string;
  /** The arguments: always an object. */
  input: Record<string, unknown>;
}

/** A tool's result, in a user message; read as one of our tool messages. */
export interface AnthropicToolResultBlockParam {
  /** Marks a tool result. */
  type: 'tool_result';
  /** The `id` of the tool_use block this result answers. */
  tool_use_id: string;
  /** The result: text, or text and image blocks (and blocks kept from reading); absent when the result is empty. */
  content?: string | (AnthropicTextBlockParam | AnthropicImageBlockParam | AnthropicOtherBlock)[];
  /** True when the tool failed (our isError); written only then, and absent otherwise. */
  is_error?: boolean;
}

/** A block our Message cannot hold (thinking, documents, server tool blocks), given back as it was read. */
export interface AnthropicOtherBlock {
  /** The block's type, e.g. 'thinking', 'redacted_thinking', 'document', 'server_tool_use'. */
  type: string;
  [key: string]: unknown;
}

/** One content block of a Messages API message: text, image, tool_use, tool_result, or another kept as read. */
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
  parts?: CarriedPart[];
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
