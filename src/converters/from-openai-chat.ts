import { parseToolArguments } from '../messages/tool-arguments.js';
import type { ContentPart, Message, TextPart, ToolCall } from '../messages/types.js';
import { rawArguments } from './arguments-text.js';
import { metadataWith } from './carried-parts.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { checkArray, invalidInput, isRecord, requireString } from './invalid-input.js';
import { OPENAI_CHAT_METADATA } from './openai-chat-types.js';

const WHERE = 'fromOpenAIChat()';
const PARTS_FIX = 'Our Message holds text and images only: drop the part, or put what it says in a text part.';

function textParts(content: unknown[], i: number, allowRefusal: boolean): TextPart[] {
  return content.map((part, j) => {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string')
      return { type: 'text', text: part.text };
    if (allowRefusal && isRecord(part) && part.type === 'refusal' && typeof part.refusal === 'string')
      return { type: 'text', text: part.refusal };
    const type = isRecord(part) ? JSON.stringify(part.type) : 'no object';
    throw invalidInput(
      WHERE,
      `messages[${i}].content[${j}]`,
      i,
      `is a part of type ${type} where text is expected`,
      PARTS_FIX,
    );
  });
}

function userContent(content: unknown, i: number): string | ContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw invalidInput(WHERE, `messages[${i}]`, i, 'has content that is neither a string nor parts', PARTS_FIX);
  return content.map((part, j): ContentPart => {
    if (isRecord(part) && part.type === 'image_url') {
      const image = part.image_url;
      const url = isRecord(image) ? image.url : image;
      if (typeof url !== 'string' || url === '')
        throw invalidInput(WHERE, `messages[${i}].content[${j}]`, i, 'is an image_url part without a url', PARTS_FIX);
      const detail = isRecord(image) ? image.detail : undefined;
      return {
        type: 'image',
        image: url,
        ...(detail === 'low' || detail === 'high' || detail === 'auto' ? { detail } : {}),
      };
    }
    return textParts([part], i, false)[0] as TextPart;
  });
}

function toolCalls(value: unknown, i: number, raw: Record<string, string>): ToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  const fix = "A tool call is { id, type: 'function', function: { name, arguments } }.";
  if (!Array.isArray(value)) throw invalidInput(WHERE, `messages[${i}].tool_calls`, i, 'is not an array', fix);
  if (value.length === 0) return undefined;
  return value.map((call, j) => {
    const path = `messages[${i}].tool_calls[${j}]`;
    if (!isRecord(call) || (call.type !== undefined && call.type !== 'function') || !isRecord(call.function)) {
      const type = isRecord(call) ? JSON.stringify(call.type) : 'no object';
      throw invalidInput(WHERE, path, i, `is a tool call of type ${type}`, `Only function tool calls convert. ${fix}`);
    }
    const id = requireString(WHERE, path, i, call.id, 'id', fix);
    const args = parseToolArguments(call.function.arguments);
    const text = rawArguments(call.function.arguments, args);
    if (text !== undefined) raw[id] = text;
    return { id, name: requireString(WHERE, `${path}.function`, i, call.function.name, 'name', fix), arguments: args };
  });
}

function fromChatMessage(m: unknown, i: number): Message {
  if (!isRecord(m)) throw invalidInput(WHERE, `messages[${i}]`, i, 'is not an object', 'Give { role, content }.');
  const name = typeof m.name === 'string' ? m.name : undefined;
  switch (m.role) {
    case 'system':
    case 'developer': {
      const content = typeof m.content === 'string' ? m.content : undefined;
      const parts = Array.isArray(m.content) ? textParts(m.content, i, false) : undefined;
      if (content === undefined && parts === undefined)
        throw invalidInput(WHERE, `messages[${i}]`, i, `(${m.role}) has no text content`, 'Give content as a string.');
      const role = m.role === 'developer' ? 'developer' : undefined;
      return {
        role: 'system',
        content: content ?? (parts ?? []).map((p) => p.text).join('\n'),
        ...metadataWith(OPENAI_CHAT_METADATA, { name, role }),
      };
    }
    case 'user':
      return { role: 'user', content: userContent(m.content, i), ...metadataWith(OPENAI_CHAT_METADATA, { name }) };
    case 'assistant': {
      if (m.function_call !== undefined && m.function_call !== null) {
        throw invalidInput(WHERE, `messages[${i}]`, i, 'uses the legacy function_call', 'Write it as tool_calls.');
      }
      const raw: Record<string, string> = {};
      const calls = toolCalls(m.tool_calls, i, raw);
      let content: string | TextPart[];
      if (typeof m.content === 'string') content = m.content;
      // No parts beside tool calls says what content null says: read alike, written back as null.
      else if (Array.isArray(m.content) && m.content.length === 0 && calls !== undefined) content = '';
      else if (Array.isArray(m.content)) content = textParts(m.content, i, true);
      else if (m.content === null || m.content === undefined) content = typeof m.refusal === 'string' ? m.refusal : '';
      else throw invalidInput(WHERE, `messages[${i}]`, i, 'has content that is not text', PARTS_FIX);
      return {
        role: 'assistant',
        content,
        ...(calls === undefined ? {} : { toolCalls: calls }),
        ...metadataWith(OPENAI_CHAT_METADATA, { name, arguments: Object.keys(raw).length > 0 ? raw : undefined }),
      };
    }
    case 'tool': {
      const fix = 'A tool message is { role: "tool", tool_call_id, content }.';
      const toolCallId = requireString(WHERE, `messages[${i}]`, i, m.tool_call_id, 'tool_call_id', fix);
      const content =
        typeof m.content === 'string'
          ? m.content
          : Array.isArray(m.content)
            ? textParts(m.content, i, false)
            : undefined;
      if (content === undefined) throw invalidInput(WHERE, `messages[${i}]`, i, 'has no text content', fix);
      const named = name === undefined ? {} : { toolName: name, ...metadataWith(OPENAI_CHAT_METADATA, { name }) };
      return { role: 'tool', toolCallId, content, ...named };
    }
    case 'function':
      throw invalidInput(
        WHERE,
        `messages[${i}]`,
        i,
        'is a legacy function message',
        'Write it as a tool message { role: "tool", tool_call_id, content } answering a tool_calls entry.',
      );
    default:
      throw invalidInput(
        WHERE,
        `messages[${i}]`,
        i,
        `has role ${JSON.stringify(m.role)}`,
        "Chat messages have role 'system', 'developer', 'user', 'assistant' or 'tool'; drop messages the model never saw.",
      );
  }
}

/**
 * OpenAI Chat Completions messages as our messages: `content` null, a string or parts;
 * `tool_calls` (arguments parsed from their JSON text); `tool_call_id`; `name` (kept in
 * `metadata.openai`, and on tool messages read as `toolName`). Fields the model never sees
 * (such as a log's `extra`) are left out. Throws LOUSHO_MESSAGE_INVALID naming the message
 * and the fix when a message cannot be read.
 *
 * @example
 * const messages = fromOpenAIChat([
 *   { role: 'user', content: 'Weather in Paris?' },
 *   { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
 *   { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
 * ]);
 */
export function fromOpenAIChat(messages: readonly unknown[], options: ConvertOptions = {}): Message[] {
  return checkedTranscript(chatMessages(messages), options);
}

/** {@link fromOpenAIChat} before the transcript is checked: for a log reader that adds to the messages first. */
export function chatMessages(messages: readonly unknown[]): Message[] {
  checkArray(WHERE, messages);
  return messages.map(fromChatMessage);
}
