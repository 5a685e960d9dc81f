import type { Message, ToolCall } from '../messages/types.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  logExtras,
  numberOf,
  REPORTED_USAGE,
  type ReportedUsage,
  reportedUsage,
  sumOf,
} from './log-reading.js';

type Entry = Record<string, unknown>;

const isHeader = (r: unknown): r is Entry => isRecord(r) && typeof r.sessionId === 'string' && 'projectHash' in r;
const isEntry = (r: unknown): r is Entry => isRecord(r) && typeof r.id === 'string' && typeof r.type === 'string';

/**
 * True for a Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.json`):
 * its JSON-lines form (a `{ sessionId, projectHash }` header, then messages and `$set`
 * updates) or its older single JSON `{ sessionId, projectHash, messages }`.
 */
export function isGeminiChat(data: unknown): boolean {
  const entries = Array.isArray(data) ? (data.some(isHeader) ? data : []) : isHeader(data) ? data.messages : [];
  return Array.isArray(entries) && entries.some((e) => isEntry(e) && (e.type === 'gemini' || e.type === 'user'));
}

/** The messages of a recording, each `id` once: a later record of an id (the reply written again with its tool calls) replaces it where it was. */
function entriesOf(data: unknown): Entry[] {
  const all = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.messages) ? data.messages : [];
  const out: Entry[] = [];
  const at = new Map<string, number>();
  for (const e of all) {
    if (!isEntry(e)) continue;
    const seen = at.get(e.id as string);
    if (seen !== undefined) out[seen] = e;
    else {
      at.set(e.id as string, out.length);
      out.push(e);
    }
  }
  return out;
}

/** The text of Gemini parts (a string, a part, or a list): text parts joined; other parts named. */
function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  const parts = Array.isArray(value) ? value : [value];
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (!isRecord(p)) return '';
      if (typeof p.text === 'string') return p.text;
      if (isRecord(p.functionResponse)) {
        const response = p.functionResponse.response;
        const out = isRecord(response) ? (response.output ?? response.error ?? response) : response;
        return typeof out === 'string' ? out : JSON.stringify(out ?? '');
      }
      if (isRecord(p.inlineData)) return `[${String(p.inlineData.mimeType ?? 'inline data')}]`;
      return JSON.stringify(p);
    })
    .join('\n');
}

/** The usage of a reply's `tokens` (Gemini's counts: `input` holds the cached ones; thoughts are output). */
function tokensUsage(value: unknown): ReportedUsage | undefined {
  if (!isRecord(value)) return undefined;
  const thoughts = numberOf(value.thoughts);
  return reportedUsage({
    inputTokens: sumOf(numberOf(value.input), numberOf(value.tool)),
    outputTokens: sumOf(numberOf(value.output), thoughts),
    cacheReadTokens: numberOf(value.cached),
    reasoningTokens: thoughts,
  });
}

/** A reply and the results of its calls (a call with neither result nor error is left waiting). */
function reply(e: Entry): Message[] {
  const records = Array.isArray(e.toolCalls) ? e.toolCalls.filter(isRecord) : [];
  const calls: ToolCall[] = records.map((c) => ({ id: String(c.id), name: String(c.name), arguments: c.args ?? {} }));
  const usage = tokensUsage(e.tokens);
  const results: Message[] = records
    .filter((c) => c.result !== undefined && c.result !== null)
    .map((c) => ({
      role: 'tool',
      toolCallId: String(c.id),
      toolName: String(c.name),
      content: partsText(c.result),
      ...(c.status === 'error' || c.status === 'cancelled' ? { isError: true } : {}),
    }));
  const assistant: Message = {
    role: 'assistant',
    content: partsText(e.content ?? ''),
    ...(calls.length === 0 ? {} : { toolCalls: calls }),
    ...(usage === undefined ? {} : { metadata: { [REPORTED_USAGE]: usage } }),
  };
  return [assistant, ...results];
}

/**
 * A Gemini CLI chat recording as our messages, with the newest model it names and the usage
 * of its newest reply that reports one. Both forms are read: JSON lines (a header, then one record per message and `$set`
 * updates of the session's fields; a reply is written again once its tool calls ran, and the
 * latest record of an id is read) and the older `{ sessionId, projectHash, messages }`.
 * `user` messages become user text, `gemini` replies assistant messages with their tool calls
 * (`args`), each followed by the call's result (its functionResponse output; `error` and
 * `cancelled` calls as error results). Thought summaries, `info`, `error` and `warning`
 * notes are not read (the model never saw them). A reply's `tokens` become its
 * `metadata.reportedUsage` (thoughts counted as output, as Gemini bills them).
 *
 * @example
 * const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
 * const { messages, model } = fromGeminiCli(lines);
 */
export function fromGeminiCli(data: unknown, options: ConvertOptions = {}): LogReading {
  const messages: Message[] = [];
  let model: string | undefined;
  let reported: ReportedUsage | undefined;
  for (const e of entriesOf(data)) {
    if (e.type === 'user') messages.push({ role: 'user', content: partsText(e.content ?? '') });
    else if (e.type === 'gemini') {
      messages.push(...reply(e));
      if (typeof e.model === 'string') model = e.model;
      reported = tokensUsage(e.tokens) ?? reported;
    }
  }
  return { messages: checkedTranscript(messages, options), ...logExtras({ model, reported }) };
}
