import type { Message } from '../messages/types.js';
import { validateMessageShapes } from '../messages/validate.js';
import type { AnthropicTranscript } from './anthropic-types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
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
  redacted_thinking: 'anthropic',
  'tool-call': 'ai-sdk',
  'tool-result': 'ai-sdk',
  reasoning: 'ai-sdk',
  file: 'ai-sdk',
};

/**
 * The item types of the OpenAI Responses API `input` (and of what it returns), by which an
 * item without a role is recognised; a record with another `type` is no Responses item.
 */
export const RESPONSES_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'compaction',
  'item_reference',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
]);

/** What one message or item says about its format, or undefined when it would read the same in several. */
function signal(m: unknown): TranscriptFormat | undefined {
  if (!isRecord(m)) return undefined;
  if (typeof m.type === 'string' && m.type !== 'message' && RESPONSES_ITEM_TYPES.has(m.type)) return 'openai-responses';
  if ('tool_calls' in m || 'tool_call_id' in m) return 'openai-chat';
  if ('toolCalls' in m || 'toolCallId' in m) return 'lousho';
  if (m.role === 'developer' || m.type === 'message') return 'openai-responses';
  if (isRecord(m.providerOptions)) return 'ai-sdk';
  if (!Array.isArray(m.content)) return m.content === null ? 'openai-chat' : undefined;
  for (const part of m.content) {
    if (!isRecord(part)) continue;
    // An image part { type: 'image', image } is ours and the AI SDK's alike.
    if (part.type === 'image') return isRecord(part.source) ? 'anthropic' : undefined;
    // An Anthropic compaction block holds its summary in `content`; ours in `text`.
    if (part.type === 'compaction') return typeof part.content === 'string' ? 'anthropic' : undefined;
    const format = PART_FORMATS[String(part.type)];
    if (format !== undefined) return format;
  }
  return undefined;
}

/**
 * True for a record that is a message or an item of one of the message formats: it has a
 * string `role`, or its `type` is a Responses item type. Records of agent logs (a Claude Code
 * `summary`, a Codex `session_meta`) are neither.
 */
export function isMessageRecord(m: unknown): boolean {
  if (!isRecord(m)) return false;
  if (typeof m.role === 'string') return m.type === undefined || m.type === 'message';
  return typeof m.type === 'string' && RESPONSES_ITEM_TYPES.has(m.type);
}

/**
 * The format of a list of messages (or items): the first message that can only be read one
 * way decides; plain system/user/assistant text reads the same in every format and is taken
 * as ours. `system` is given when the messages came with a separate system prompt (Anthropic).
 * Undefined when a record is no message of any format (see {@link isMessageRecord}).
 */
export function detectFormat(messages: readonly unknown[], hasSystem = false): TranscriptFormat | undefined {
  if (!messages.every(isMessageRecord)) {
    // An item of a type the Responses API does not list (a Codex rollout's ghost_snapshot, kept
    // when lousho wrote the rollout as Responses items) rides along Responses items only.
    const strays = messages.filter((m) => !isMessageRecord(m));
    const items = strays.every((m) => isRecord(m) && typeof m.type === 'string' && m.role === undefined);
    return items && messages.some((m) => isMessageRecord(m) && signal(m) === 'openai-responses')
      ? 'openai-responses'
      : undefined;
  }
  for (const m of messages) {
    const format = signal(m);
    if (format !== undefined) return format;
  }
  return hasSystem ? 'anthropic' : 'lousho';
}

/** Reads messages of a format as ours (`system` apart for Anthropic). */
export function readFormat(
  format: TranscriptFormat,
  messages: readonly unknown[],
  system?: unknown,
  options: ConvertOptions = {},
): Message[] {
  switch (format) {
    case 'openai-chat':
      return fromOpenAIChat(messages, options);
    case 'openai-responses':
      return fromOpenAIResponses(messages, options);
    case 'anthropic':
      return fromAnthropic({ system, messages }, options);
    case 'ai-sdk':
      return fromModelMessages(messages, options);
    default:
      validateMessageShapes(messages);
      return checkedTranscript(messages.slice(), options);
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
