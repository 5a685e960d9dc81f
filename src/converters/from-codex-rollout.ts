import type { Message } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { responsesMessages } from './from-openai-responses.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  logExtras,
  numberOf,
  type ReportedUsage,
  reportedUsage,
  withReportedUsage,
} from './log-reading.js';

type Payload = Record<string, unknown>;

const payloadOf = (r: unknown): Payload | undefined => (isRecord(r) && isRecord(r.payload) ? r.payload : undefined);

/** True for the records of a Codex CLI rollout (`~/.codex/sessions/.../rollout-*.jsonl`): `session_meta` and `response_item` records. */
export function isCodexRollout(records: readonly unknown[]): boolean {
  const types = new Set(records.map((r) => (isRecord(r) && payloadOf(r) !== undefined ? r.type : undefined)));
  return types.has('response_item') && (types.has('session_meta') || types.has('turn_context'));
}

/** A Responses item as the Responses reader takes it: Codex's custom tool calls (apply_patch) are function calls with text arguments. */
function asItem(payload: Payload): Payload {
  if (payload.type === 'custom_tool_call') {
    const { input, ...rest } = payload;
    return { ...rest, type: 'function_call', arguments: input };
  }
  if (payload.type === 'custom_tool_call_output') return { ...payload, type: 'function_call_output' };
  return payload;
}

/** What an item is to the replies: part of one that becomes an assistant message, a message of someone else, or carried beside one. */
function side(item: Payload): 'reply' | 'other' | 'carried' {
  if (item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant')) return 'reply';
  if (item.type === 'function_call_output' || item.type === 'message' || item.role !== undefined) return 'other';
  return 'carried';
}

function usageOf(last: unknown): ReportedUsage | undefined {
  if (!isRecord(last)) return undefined;
  return reportedUsage({
    inputTokens: numberOf(last.input_tokens),
    outputTokens: numberOf(last.output_tokens),
    cacheReadTokens: numberOf(last.cached_input_tokens),
    reasoningTokens: numberOf(last.reasoning_output_tokens),
  });
}

/** The usage of each reply (`byReply[k]`, the k-th run of assistant messages) on the last assistant message of its run. */
function onReplies(messages: Message[], byReply: readonly (ReportedUsage | undefined)[]): Message[] {
  const usages: (ReportedUsage | undefined)[] = [];
  let reply = -1;
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    if (messages[i - 1]?.role !== 'assistant') reply++;
    usages.push(messages[i + 1]?.role === 'assistant' ? undefined : byReply[reply]);
  });
  return withReportedUsage(messages, usages);
}

/**
 * A Codex CLI rollout as our messages, with the model of its newest turn and the usage of its
 * newest request (the last `token_count` event). The `response_item` payloads are the
 * Responses items Codex sent, read as {@link fromOpenAIResponses} reads them; the session's
 * base instructions become the system message; after a `compacted` record, its replacement
 * history stands for everything before it. Events (`event_msg`) repeat what the items hold
 * and are not read, but for `token_count`: the usage of a request, set as
 * `metadata.reportedUsage` on the last assistant message of the reply logged before it.
 *
 * @example
 * const { messages, model } = fromCodexRollout(text.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
 */
export function fromCodexRollout(records: readonly unknown[], options: ConvertOptions = {}): LogReading {
  let items: unknown[] = [];
  let instructions: string | undefined;
  let model: string | undefined;
  let usage: ReportedUsage | undefined;
  let byReply: (ReportedUsage | undefined)[] = [];
  let replies = 0;
  let inReply = false;
  const add = (item: unknown) => {
    items.push(item);
    const kind = isRecord(item) ? side(item) : 'other';
    if (kind === 'reply' && !inReply) replies++;
    if (kind !== 'carried') inReply = kind === 'reply';
  };
  for (const r of records) {
    const payload = payloadOf(r);
    if (payload === undefined || !isRecord(r)) continue;
    if (r.type === 'response_item') add(asItem(payload));
    else if (r.type === 'session_meta') {
      const base = payload.base_instructions;
      const text = isRecord(base) ? base.text : payload.instructions;
      if (typeof text === 'string' && text !== '') instructions = text;
    } else if (r.type === 'turn_context' && typeof payload.model === 'string') model = payload.model;
    else if (r.type === 'compacted' && Array.isArray(payload.replacement_history)) {
      // The replies before it are no longer in the transcript, nor their usage.
      [items, byReply, replies, inReply] = [[], [], 0, false];
      for (const item of payload.replacement_history) add(isRecord(item) ? asItem(item) : item);
    } else if (r.type === 'event_msg' && payload.type === 'token_count' && isRecord(payload.info)) {
      const last = usageOf(payload.info.last_token_usage);
      if (last === undefined) continue;
      usage = last;
      if (replies > 0) byReply[replies - 1] = last;
    }
  }
  const system = instructions === undefined ? [] : [{ type: 'message', role: 'system', content: instructions }];
  const messages = onReplies(responsesMessages([...system, ...items]), byReply);
  return { messages: checkedTranscript(messages, options), ...logExtras({ model, reported: usage }) };
}
