import { toolArgumentsObject } from '../messages/tool-arguments.js';
import type { AssistantPart, ContentPart, Message, ToolMessage } from '../messages/types.js';
import { anthropicImageBlock } from './anthropic-image.js';
import {
  ANTHROPIC_METADATA,
  type AnthropicContentBlock,
  type AnthropicImageBlockParam,
  type AnthropicMessageParam,
  type AnthropicMetadata,
  type AnthropicTextBlockParam,
  type AnthropicToolResultBlockParam,
  type AnthropicTranscript,
} from './anthropic-types.js';
import { mergeCarried, namespaceOf } from './carried-parts.js';

const WHERE = 'toAnthropic()';

function blocks(content: readonly ContentPart[], i: number): (AnthropicTextBlockParam | AnthropicImageBlockParam)[] {
  return content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : anthropicImageBlock(part, i, WHERE),
  );
}

function carriedOf(m: Message) {
  return namespaceOf<AnthropicMetadata>(m, ANTHROPIC_METADATA)?.parts;
}

function toolResult(m: ToolMessage, i: number): AnthropicToolResultBlockParam {
  const carried = carriedOf(m);
  const content =
    typeof m.content === 'string' && carried === undefined
      ? m.content
      : (mergeCarried(blocks(typeof m.content === 'string' ? [] : m.content, i), carried) as AnthropicContentBlock[]);
  return {
    type: 'tool_result',
    tool_use_id: m.toolCallId,
    ...(content === '' ? {} : { content: content as NonNullable<AnthropicToolResultBlockParam['content']> }),
    ...(m.isError === true ? { is_error: true } : {}),
  };
}

/** One part of an assistant message as a block: reasoning goes back only to Anthropic, which wrote it. */
function assistantBlock(part: AssistantPart): AnthropicContentBlock[] {
  if (part.type === 'text') return [{ type: 'text', text: part.text } satisfies AnthropicTextBlockParam];
  if (part.type !== 'reasoning' || part.provider !== 'anthropic') return [];
  if (part.encrypted !== undefined && part.text === '') return [{ type: 'redacted_thinking', data: part.encrypted }];
  return [
    { type: 'thinking', thinking: part.text, ...(part.signature === undefined ? {} : { signature: part.signature }) },
  ];
}

function message(m: Exclude<Message, ToolMessage>, i: number): AnthropicMessageParam {
  const carried = carriedOf(m);
  if (m.role === 'system') return { role: 'user', content: `[system] ${m.content}` };
  if (m.role === 'user') {
    if (typeof m.content === 'string' && carried === undefined) return { role: 'user', content: m.content };
    const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    return { role: 'user', content: mergeCarried(blocks(parts, i), carried) as AnthropicContentBlock[] };
  }
  const calls = m.toolCalls ?? [];
  if (typeof m.content === 'string' && calls.length === 0 && carried === undefined)
    return { role: 'assistant', content: m.content };
  const parts =
    typeof m.content === 'string' ? (m.content === '' ? [] : [{ type: 'text' as const, text: m.content }]) : m.content;
  const list: AnthropicContentBlock[] = [
    ...parts.flatMap(assistantBlock),
    ...calls.map((c) => ({
      type: 'tool_use' as const,
      id: c.id,
      name: c.name,
      input: toolArgumentsObject(c.arguments),
    })),
  ];
  return { role: 'assistant', content: mergeCarried(list, carried) as AnthropicContentBlock[] };
}

/**
 * Our messages as an Anthropic Messages API transcript, `{ system, messages }` (system
 * apart): the leading system messages become `system` (a string, or text blocks when
 * there are several); consecutive tool results become one user message of `tool_result`
 * blocks; tool calls become `tool_use` blocks (arguments that are not an object become {}).
 * What {@link fromAnthropic} kept in `metadata.anthropic` (thinking, documents) goes back
 * where it was. Lossy: a later system message becomes user text starting "[system] ", and
 * `toolName`, image `detail`/`width`/`height` and `metadata` are not written (see
 * docs/converters.md). Throws LOUSHO_MESSAGE_INVALID for an image Anthropic cannot take.
 *
 * @example
 * const { system, messages } = toAnthropic(transcript);
 * await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, system, messages });
 */
export function toAnthropic(messages: readonly Message[]): AnthropicTranscript {
  let start = 0;
  while (messages[start]?.role === 'system') start++;
  const system = (messages.slice(0, start) as Extract<Message, { role: 'system' }>[]).map((m) => m.content);
  const out: AnthropicMessageParam[] = [];
  let results: AnthropicToolResultBlockParam[] | undefined;
  for (let i = start; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'tool') {
      results = undefined;
      out.push(message(m, i));
      continue;
    }
    if (results === undefined) {
      results = [];
      out.push({ role: 'user', content: results });
    }
    results.push(toolResult(m, i));
  }
  return {
    ...(system.length === 0
      ? {}
      : { system: system.length === 1 ? (system[0] as string) : system.map((text) => ({ type: 'text', text })) }),
    messages: out,
  };
}
