import { LoushoError } from '../errors/lousho-error.js';
import type { AssistantPart, ContentPart, Message, ReasoningPart, TextPart, ToolCall } from '../messages/types.js';
import { ANTHROPIC_METADATA } from './anthropic-types.js';
import { type CarriedPart, dropEmptyTextBesideCalls, metadataWith, splitCarried } from './carried-parts.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { checkArray, invalidInput, isRecord, requireString } from './invalid-input.js';

const WHERE = 'fromAnthropic()';

type Block = Record<string, unknown>;

function isImage(block: Block): boolean {
  const source = block.source;
  return (
    block.type === 'image' &&
    isRecord(source) &&
    ((source.type === 'base64' && typeof source.data === 'string') ||
      (source.type === 'url' && typeof source.url === 'string'))
  );
}

const isOurBlock = (block: unknown): block is Block =>
  isRecord(block) && ((block.type === 'text' && typeof block.text === 'string') || isImage(block));

function toPart(block: Block): ContentPart {
  if (block.type === 'text') return { type: 'text', text: block.text as string };
  const source = block.source as Block;
  if (source.type === 'url') return { type: 'image', image: source.url as string };
  const mediaType = typeof source.media_type === 'string' ? { mediaType: source.media_type } : {};
  return { type: 'image', image: source.data as string, ...mediaType };
}

function parts(blocks: unknown[]): { content: ContentPart[]; carried: CarriedPart[] } {
  const { kept, carried } = splitCarried(blocks, isOurBlock);
  return { content: kept.map(toPart), carried };
}

function toolResult(block: Block, path: string, i: number): Message {
  const fix = 'A tool_result block is { type: "tool_result", tool_use_id, content?, is_error? }.';
  const toolCallId = requireString(WHERE, path, i, block.tool_use_id, 'tool_use_id', fix);
  let content: string | ContentPart[] = '';
  let carried: CarriedPart[] = [];
  if (typeof block.content === 'string') content = block.content;
  else if (Array.isArray(block.content)) ({ content, carried } = parts(block.content));
  else if (block.content !== undefined) throw invalidInput(WHERE, path, i, 'has content that is not text', fix);
  return {
    role: 'tool',
    toolCallId,
    content,
    ...(block.is_error === true ? { isError: true } : {}),
    ...metadataWith(ANTHROPIC_METADATA, { parts: carried }),
  };
}

function userMessages(content: unknown[], i: number): Message[] {
  const results: Message[] = [];
  const rest: unknown[] = [];
  content.forEach((block, j) => {
    if (isRecord(block) && block.type === 'tool_result')
      results.push(toolResult(block, `messages[${i}].content[${j}]`, i));
    else rest.push(block);
  });
  if (results.length > 0 && rest.length === 0) return results;
  const { content: ours, carried } = parts(rest);
  return [...results, { role: 'user', content: ours, ...metadataWith(ANTHROPIC_METADATA, { parts: carried }) }];
}

/** A thinking or redacted_thinking block as a reasoning part (signature and data kept), or undefined for another block. */
function reasoningPart(block: unknown): ReasoningPart | undefined {
  if (!isRecord(block)) return undefined;
  if (block.type === 'thinking' && typeof block.thinking === 'string')
    return {
      type: 'reasoning',
      text: block.thinking,
      provider: 'anthropic',
      ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
    };
  if (block.type === 'redacted_thinking' && typeof block.data === 'string')
    return { type: 'reasoning', text: '', encrypted: block.data, provider: 'anthropic' };
  return undefined;
}

function assistantMessage(content: unknown[], i: number): Message {
  const calls: ToolCall[] = [];
  const isOurs = (block: unknown): block is Block =>
    isRecord(block) &&
    ((block.type === 'text' && typeof block.text === 'string') ||
      block.type === 'tool_use' ||
      reasoningPart(block) !== undefined);
  const blocks = dropEmptyTextBesideCalls(content, (b) => isRecord(b) && b.type === 'tool_use');
  const { kept, carried } = splitCarried(blocks, isOurs);
  const parts: AssistantPart[] = [];
  kept.forEach((block, j) => {
    const reasoning = reasoningPart(block);
    if (reasoning !== undefined) {
      parts.push(reasoning);
      return;
    }
    if (block.type === 'text') {
      parts.push({ type: 'text', text: block.text as string });
      return;
    }
    const path = `messages[${i}].content[${j}]`;
    const fix = 'A tool_use block is { type: "tool_use", id, name, input }.';
    calls.push({
      id: requireString(WHERE, path, i, block.id, 'id', fix),
      name: requireString(WHERE, path, i, block.name, 'name', fix),
      arguments: block.input ?? {},
    });
  });
  const onlyText = parts.every((p) => p.type === 'text');
  const text =
    calls.length > 0 && onlyText && parts.length <= 1 ? ((parts[0] as TextPart | undefined)?.text ?? '') : parts;
  return {
    role: 'assistant',
    content: text,
    ...(calls.length === 0 ? {} : { toolCalls: calls }),
    ...metadataWith(ANTHROPIC_METADATA, { parts: carried }),
  };
}

/**
 * An Anthropic Messages API transcript as our messages: `system` (a string or text blocks)
 * becomes leading system messages; `tool_result` blocks become tool messages (before the
 * rest of their user message); `tool_use` blocks become tool calls; text and images
 * (base64 and url sources) become parts; thinking and redacted_thinking blocks become
 * reasoning parts (signature and data kept). Blocks our Message cannot hold (documents,
 * server tools) are kept in `metadata.anthropic`, so {@link toAnthropic} puts
 * them back; they are not counted or compacted. Throws LOUSHO_MESSAGE_INVALID naming the
 * message and the fix when a message cannot be read.
 *
 * @example
 * const messages = fromAnthropic({
 *   system: 'You are terse.',
 *   messages: [
 *     { role: 'user', content: 'Weather in Paris?' },
 *     { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } }] },
 *     { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' }] },
 *   ],
 * });
 */
export function fromAnthropic(
  transcript: { system?: unknown; messages: readonly unknown[] },
  options: ConvertOptions = {},
): Message[] {
  return checkedTranscript(anthropicMessages(transcript), options);
}

/** {@link fromAnthropic} before the transcript is checked: for a log reader that adds to the messages first. */
export function anthropicMessages(transcript: { system?: unknown; messages: readonly unknown[] }): Message[] {
  if (!isRecord(transcript)) {
    throw new LoushoError('LOUSHO_MESSAGE_INVALID', `${WHERE} takes { system?, messages }, the request's own fields.`);
  }
  checkArray(WHERE, transcript.messages);
  const out: Message[] = [];
  const { system } = transcript;
  if (typeof system === 'string') out.push({ role: 'system', content: system });
  else if (Array.isArray(system)) {
    system.forEach((block, j) => {
      if (!isRecord(block) || typeof block.text !== 'string')
        throw invalidInput(
          WHERE,
          `system[${j}]`,
          j,
          'is not a text block',
          'The system prompt is a string or text blocks.',
        );
      out.push({ role: 'system', content: block.text });
    });
  } else if (system !== undefined && system !== null) {
    throw invalidInput(
      WHERE,
      'system',
      0,
      'is neither a string nor text blocks',
      'Give the system prompt as a string.',
    );
  }
  transcript.messages.forEach((m, i) => {
    const path = `messages[${i}]`;
    if (!isRecord(m)) throw invalidInput(WHERE, path, i, 'is not an object', 'Give { role, content }.');
    if (m.role !== 'user' && m.role !== 'assistant') {
      throw invalidInput(
        WHERE,
        path,
        i,
        `has role ${JSON.stringify(m.role)}`,
        "Messages have role 'user' or 'assistant'; the system prompt goes in system.",
      );
    }
    if (typeof m.content === 'string') out.push({ role: m.role, content: m.content });
    else if (!Array.isArray(m.content))
      throw invalidInput(WHERE, path, i, 'has content that is neither a string nor blocks', 'Give content.');
    else if (m.role === 'user') out.push(...userMessages(m.content, i));
    else out.push(assistantMessage(m.content, i));
  });
  return out;
}
