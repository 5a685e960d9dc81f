import { contentText } from '../messages/content.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantMessage, Message, TextPart } from '../messages/types.js';
import { readAgentsParts } from './agents-content.js';
import { AGENTS_METADATA, type AgentsMetadata } from './agents-items-types.js';
import { rawArguments } from './arguments-text.js';
import { metadataWith } from './carried-parts.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { checkArray, invalidInput, isRecord, requireString } from './invalid-input.js';

const WHERE = 'fromAgentsItems()';

type Draft = Message & { metadata?: { [AGENTS_METADATA]?: AgentsMetadata } };

function without(item: Record<string, unknown>, skip: readonly string[]): Record<string, unknown> {
  const rest = { ...item };
  for (const key of skip) delete rest[key];
  return rest;
}

/** What toAgentsItems writes for an item when it has no other fields, and how many fields that is. */
interface Defaults {
  fields: Readonly<Record<string, unknown>>;
  count: number;
}

const defaultsOf = (fields: Record<string, unknown>): Defaults => ({ fields, count: Object.keys(fields).length });

/**
 * The fields of `item` but those in `skip`, unless they are exactly the defaults. It
 * allocates only for an item that has more: it runs on every item a session stores.
 */
function fieldsBeyond(
  item: Record<string, unknown>,
  skip: readonly string[],
  defaults: Defaults,
): Record<string, unknown> | undefined {
  let count = 0;
  for (const key in item) {
    if (!Object.hasOwn(item, key) || skip.includes(key)) continue;
    count++;
    if (item[key] !== defaults.fields[key]) return without(item, skip);
  }
  return count === defaults.count ? undefined : without(item, skip);
}

const MESSAGE_DEFAULTS: Readonly<Record<'user' | 'system' | 'assistant', Defaults>> = {
  user: defaultsOf({ type: 'message', role: 'user' }),
  system: defaultsOf({ type: 'message', role: 'system' }),
  assistant: defaultsOf({ type: 'message', role: 'assistant', status: 'completed' }),
};
const RESULT_DEFAULTS = defaultsOf({ type: 'function_call_result', status: 'completed' });
const CALL_DEFAULTS = defaultsOf({ type: 'function_call', status: 'completed' });
const MESSAGE_SKIP = ['content'];
const RESULT_SKIP = ['output', 'callId', 'name'];
const CALL_SKIP = ['callId', 'name'];
const CALL_SKIP_ARGUMENTS = ['callId', 'name', 'arguments'];

function agentsMeta(message: Draft): AgentsMetadata {
  return message.metadata?.[AGENTS_METADATA] ?? {};
}

function setMeta(message: Draft, meta: AgentsMetadata): void {
  const { metadata } = metadataWith(AGENTS_METADATA, { ...meta }, message.metadata);
  if (metadata !== undefined) message.metadata = metadata;
}

function messageItem(item: Record<string, unknown>, i: number): Draft {
  const path = `items[${i}]`;
  const { role, content } = item;
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    throw invalidInput(
      WHERE,
      path,
      i,
      `has role ${JSON.stringify(role)}`,
      "A message item has role 'user', 'assistant' or 'system'.",
    );
  }
  const message = fieldsBeyond(item, MESSAGE_SKIP, MESSAGE_DEFAULTS[role]);
  if (role === 'system') {
    if (typeof content !== 'string')
      throw invalidInput(WHERE, path, i, '(system) has content that is not a string', 'Give a string.');
    return { role: 'system', content, ...metadataWith(AGENTS_METADATA, { message }) };
  }
  if (typeof content === 'string') return { role, content, ...metadataWith(AGENTS_METADATA, { message }) };
  if (!Array.isArray(content))
    throw invalidInput(WHERE, path, i, 'has content that is neither a string nor parts', 'Give content.');
  const { content: parts, carried } = readAgentsParts(content);
  const meta = metadataWith(AGENTS_METADATA, { message, parts: carried });
  if (role === 'user') return { role: 'user', content: parts, ...meta };
  if (parts.some((p) => p.type === 'image'))
    throw invalidInput(
      WHERE,
      path,
      i,
      '(assistant) has an image',
      'Only user messages and tool results hold images here.',
    );
  const texts = parts as TextPart[];
  return {
    role: 'assistant',
    content: texts.length <= 1 && carried.length === 0 ? contentText(texts) : texts,
    ...meta,
  };
}

function resultItem(item: Record<string, unknown>, i: number, names: Map<string, string>): Draft {
  const path = `items[${i}]`;
  const fix = "A function call result is { type: 'function_call_result', callId, name, status, output }.";
  const toolCallId = requireString(WHERE, path, i, item.callId, 'callId', fix);
  // The result's name is the call's: kept as toolName only when it says something the call does not.
  const name = typeof item.name === 'string' && item.name !== names.get(toolCallId) ? { toolName: item.name } : {};
  const result = fieldsBeyond(item, RESULT_SKIP, RESULT_DEFAULTS);
  const { output } = item;
  if (typeof output === 'string')
    return { role: 'tool', toolCallId, ...name, content: output, ...metadataWith(AGENTS_METADATA, { result }) };
  const single = isRecord(output);
  if (!single && !Array.isArray(output)) throw invalidInput(WHERE, path, i, 'has no output', fix);
  const { content, carried } = readAgentsParts(single ? [output] : (output as unknown[]));
  const asText = single && output.type === 'text' && content.length === 1 ? contentText(content) : content;
  return {
    role: 'tool',
    toolCallId,
    ...name,
    content: asText,
    ...metadataWith(AGENTS_METADATA, { result, parts: carried, ...(single ? { output: 'object' as const } : {}) }),
  };
}

/**
 * The items an OpenAI Agents SDK session stores (AgentInputItem) as our messages: message
 * items, function_call items (joined to the assistant message before them) and
 * function_call_result items. Each item's other fields, and items our Message cannot hold
 * (reasoning, hosted tool calls), are kept in `metadata.openaiAgents`, so
 * {@link toAgentsItems} writes them back as they were. Throws LOUSHO_MESSAGE_INVALID
 * naming the item and the fix when an item cannot be read.
 *
 * @example
 * const transcript = fromAgentsItems(await session.getItems());
 * console.log(estimateTokens(transcript, 'gpt-4o-mini'));
 */
export function fromAgentsItems(items: readonly unknown[], options: ConvertOptions = {}): Message[] {
  return checkedTranscript(agentsItemsToMessages(items), options);
}

/**
 * {@link fromAgentsItems} without the check of how calls and results pair: for a part of a
 * transcript (the messages a step added). When `ends` is given, the end of each message's
 * items in `items` is pushed onto it (the items it was read from, and the unknown items
 * kept with it): how a session that stores the items finds the messages a number of
 * items covers, without writing the messages back.
 */
export function agentsItemsToMessages(items: readonly unknown[], ends?: number[]): Message[] {
  checkArray(WHERE, items, 'items');
  const out: Draft[] = [];
  const names = new Map<string, string>();
  let pending: unknown[] = [];
  const push = (message: Draft, end: number) => {
    if (pending.length > 0) setMeta(message, { ...agentsMeta(message), before: pending });
    pending = [];
    out.push(message);
    ends?.push(end);
  };
  items.forEach((item, i) => {
    if (!isRecord(item)) throw invalidInput(WHERE, `items[${i}]`, i, 'is not an object', 'Give { type, ... } items.');
    const type = item.type ?? (item.role === undefined ? undefined : 'message');
    if (type === 'message') push(messageItem(item, i), i + 1);
    else if (type === 'function_call_result') push(resultItem(item, i, names), i + 1);
    else if (type === 'function_call') {
      const fix = "A function call is { type: 'function_call', callId, name, arguments }.";
      const id = requireString(WHERE, `items[${i}]`, i, item.callId, 'callId', fix);
      const name = requireString(WHERE, `items[${i}]`, i, item.name, 'name', fix);
      names.set(id, name);
      const last = out[out.length - 1];
      const target: AssistantMessage =
        pending.length === 0 && last?.role === 'assistant' ? last : { role: 'assistant', content: '' };
      const args = parseToolArguments(item.arguments);
      target.toolCalls = [...(target.toolCalls ?? []), { id, name, arguments: args }];
      const raw = rawArguments(item.arguments, args);
      const fields = fieldsBeyond(item, raw === undefined ? CALL_SKIP_ARGUMENTS : CALL_SKIP, CALL_DEFAULTS);
      if (fields !== undefined)
        setMeta(target, { ...agentsMeta(target), calls: { ...agentsMeta(target).calls, [id]: fields } });
      if (target !== last) push(target, i + 1);
      else if (ends !== undefined) ends[ends.length - 1] = i + 1;
    } else if (typeof type === 'string') pending.push(item);
    else
      throw invalidInput(
        WHERE,
        `items[${i}]`,
        i,
        'has no type',
        "Give each item a type ('message', 'function_call', ...).",
      );
  });
  const last = out[out.length - 1];
  if (pending.length > 0 && last !== undefined) {
    setMeta(last, { ...agentsMeta(last), after: pending });
    if (ends !== undefined) ends[ends.length - 1] = items.length;
  }
  return out;
}
