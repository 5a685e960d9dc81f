import type { Message } from '../messages/types.js';
import type { AnthropicTranscript } from './anthropic-types.js';
import { fromAnthropic } from './from-anthropic.js';
import { fromModelMessages } from './from-model-messages.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { fromOpenAIResponses } from './from-openai-responses.js';
import { isRecord } from './invalid-input.js';
import { toAnthropic } from './to-anthropic.js';
import { toModelMessages } from './to-model-messages.js';
import { toOpenAIChat } from './to-openai-chat.js';
import { toOpenAIResponses } from './to-openai-responses.js';

/** The message formats a transcript can be in. */
export const TRANSCRIPT_FORMATS = ['lousho', 'openai-chat', 'openai-responses', 'anthropic', 'ai-sdk'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** How each format is named to people. */
export const FORMAT_NAMES: Record<TranscriptFormat, string> = {
  lousho: 'lousho messages',
  'openai-chat': 'OpenAI chat messages',
  'openai-responses': 'OpenAI Responses input items',
  anthropic: 'Anthropic messages',
  'ai-sdk': 'AI SDK ModelMessages',
};

const PART_FORMATS: Record<string, TranscriptFormat> = {
  image_url: 'openai-chat',
  input_text: 'openai-responses',
  output_text: 'openai-responses',
  input_image: 'openai-responses',
  input_file: 'openai-responses',
  tool_use: 'anthropic',
  tool_result: 'anthropic',
  thinking: 'anthropic',
  'tool-call': 'ai-sdk',
  'tool-result': 'ai-sdk',
  reasoning: 'ai-sdk',
  file: 'ai-sdk',
};

/** What one message or item says about its format, or undefined when it would read the same in several. */
function signal(m: unknown): TranscriptFormat | undefined {
  if (!isRecord(m)) return undefined;
  if (typeof m.type === 'string' && m.type !== 'message') return 'openai-responses';
  if ('tool_calls' in m || 'tool_call_id' in m) return 'openai-chat';
  if ('toolCalls' in m || 'toolCallId' in m) return 'lousho';
  if (m.role === 'developer' || m.type === 'message') return 'openai-responses';
  if (isRecord(m.providerOptions)) return 'ai-sdk';
  if (!Array.isArray(m.content)) return m.content === null ? 'openai-chat' : undefined;
  for (const part of m.content) {
    if (!isRecord(part)) continue;
    // An image part { type: 'image', image } is ours and the AI SDK's alike.
    if (part.type === 'image') return isRecord(part.source) ? 'anthropic' : undefined;
    const format = PART_FORMATS[String(part.type)];
    if (format !== undefined) return format;
  }
  return undefined;
}

/**
 * The format of a list of messages (or items): the first message that can only be read one
 * way decides; plain system/user/assistant text reads the same in every format and is taken
 * as ours. `system` is given when the messages came with a separate system prompt (Anthropic).
 */
export function detectFormat(messages: readonly unknown[], hasSystem = false): TranscriptFormat {
  for (const m of messages) {
    const format = signal(m);
    if (format !== undefined) return format;
  }
  return hasSystem ? 'anthropic' : 'lousho';
}

/** Reads messages of a format as ours (`system` apart for Anthropic). */
export function readFormat(format: TranscriptFormat, messages: readonly unknown[], system?: unknown): Message[] {
  switch (format) {
    case 'openai-chat':
      return fromOpenAIChat(messages);
    case 'openai-responses':
      return fromOpenAIResponses(messages);
    case 'anthropic':
      return fromAnthropic({ system, messages });
    case 'ai-sdk':
      return fromModelMessages(messages);
    default:
      return messages as Message[];
  }
}

/** Writes our messages in a format: a list, or for Anthropic `{ system, messages }`. */
export function writeFormat(format: TranscriptFormat, messages: readonly Message[]): unknown[] | AnthropicTranscript {
  switch (format) {
    case 'openai-chat':
      return toOpenAIChat(messages);
    case 'openai-responses':
      return toOpenAIResponses(messages);
    case 'anthropic':
      return toAnthropic(messages);
    case 'ai-sdk':
      return toModelMessages(messages);
    default:
      return messages.slice();
  }
}
