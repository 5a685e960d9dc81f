import type { ConvertOptions } from './checked-transcript.js';
import { fromOpenAIResponses } from './from-openai-responses.js';
import { isRecord } from './invalid-input.js';
import { type LogReading, logExtras, numberOf, reportedUsage } from './log-reading.js';

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

/**
 * A Codex CLI rollout as our messages, with the model of its newest turn and the usage of its
 * newest request (the last `token_count` event). The `response_item` payloads are the
 * Responses items Codex sent, read as {@link fromOpenAIResponses} reads them; the session's
 * base instructions become the system message; after a `compacted` record, its replacement
 * history stands for everything before it. Events (`event_msg`) repeat what the items hold
 * and are not read.
 *
 * @example
 * const { messages, model } = fromCodexRollout(text.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
 */
export function fromCodexRollout(records: readonly unknown[], options: ConvertOptions = {}): LogReading {
  let items: unknown[] = [];
  let instructions: string | undefined;
  let model: string | undefined;
  let usage: Payload | undefined;
  for (const r of records) {
    const payload = payloadOf(r);
    if (payload === undefined || !isRecord(r)) continue;
    if (r.type === 'response_item') items.push(asItem(payload));
    else if (r.type === 'session_meta') {
      const base = payload.base_instructions;
      const text = isRecord(base) ? base.text : payload.instructions;
      if (typeof text === 'string' && text !== '') instructions = text;
    } else if (r.type === 'turn_context' && typeof payload.model === 'string') model = payload.model;
    else if (r.type === 'compacted' && Array.isArray(payload.replacement_history))
      items = payload.replacement_history.map((item) => (isRecord(item) ? asItem(item) : item));
    else if (r.type === 'event_msg' && payload.type === 'token_count' && isRecord(payload.info)) {
      const last = payload.info.last_token_usage;
      if (isRecord(last)) usage = last;
    }
  }
  const system = instructions === undefined ? [] : [{ type: 'message', role: 'system', content: instructions }];
  return {
    messages: fromOpenAIResponses([...system, ...items], options),
    ...logExtras({
      model,
      reported: reportedUsage({
        inputTokens: numberOf(usage?.input_tokens),
        outputTokens: numberOf(usage?.output_tokens),
        cacheReadTokens: numberOf(usage?.cached_input_tokens),
        reasoningTokens: numberOf(usage?.reasoning_output_tokens),
      }),
    }),
  };
}
