import type { ConvertOptions } from './checked-transcript.js';
import { checkedTranscript } from './checked-transcript.js';
import { anthropicMessages } from './from-anthropic.js';
import { isRecord } from './invalid-input.js';
import {
  type LogReading,
  logExtras,
  type ReportedUsage,
  reportedAnthropicUsage,
  withReportedUsage,
} from './log-reading.js';

type ClaudeRecord = Record<string, unknown> & { message: Record<string, unknown> };
type Block = Record<string, unknown>;

/** A record of the conversation: `type` user or assistant, with the API `message` it sent or got. */
function isConversationRecord(r: unknown): r is ClaudeRecord {
  return isRecord(r) && (r.type === 'user' || r.type === 'assistant') && isRecord(r.message);
}

/**
 * True for the records of a Claude Code session (`~/.claude/projects/<project>/<session>.jsonl`):
 * its conversation records carry a `sessionId`, a `type` of 'user' or 'assistant' and the
 * API `message`; the others are summaries, progress, snapshots and system notes.
 */
export function isClaudeCodeSession(records: readonly unknown[]): boolean {
  return records.some((r) => isConversationRecord(r) && typeof r.sessionId === 'string');
}

/** The conversation records read, and what of the subagents' was left out. */
interface Conversation {
  kept: ClaudeRecord[];
  /** The file is a subagent's own: every record isSidechain. */
  subagent: boolean;
  /** Of a main session, the subagent records left out, and how many runs (records with no sidechain parent) they are. */
  sidechain: { records: number; runs: number };
}

/** The conversation records read: after the last `compact_boundary`, each `uuid` once (the latest version, where it was first logged). */
function conversationOf(records: readonly unknown[]): Conversation {
  let start = 0;
  records.forEach((r, i) => {
    if (isRecord(r) && r.type === 'system' && r.subtype === 'compact_boundary') start = i + 1;
  });
  const kept: ClaudeRecord[] = [];
  const at = new Map<unknown, number>();
  for (const r of records.slice(start)) {
    if (!isConversationRecord(r)) continue;
    const seen = typeof r.uuid === 'string' ? at.get(r.uuid) : undefined;
    if (seen !== undefined) kept[seen] = r;
    else {
      if (typeof r.uuid === 'string') at.set(r.uuid, kept.length);
      kept.push(r);
    }
  }
  // A subagent's own file holds nothing but sidechain records: it is read as its conversation.
  const subagent = kept.length > 0 && kept.every((r) => r.isSidechain === true);
  if (subagent) return { kept, subagent, sidechain: { records: 0, runs: 0 } };
  const side = kept.filter((r) => r.isSidechain === true);
  const sideUuids = new Set(side.map((r) => r.uuid));
  const runs = side.filter((r) => !sideUuids.has(r.parentUuid)).length;
  return { kept: kept.filter((r) => r.isSidechain !== true), subagent, sidechain: { records: side.length, runs } };
}

/** What the reader says of the file: a subagent's own conversation, or the subagent records a main session left out. */
function detailOf({ subagent, sidechain: { records, runs } }: Conversation): string | undefined {
  if (subagent) return "a subagent's own conversation: its records are all isSidechain";
  if (records === 0) return undefined;
  const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${s(records, 'subagent record')} (isSidechain, ${s(runs, 'run')}) left out: the Task results hold their answers; a subagent's own file (subagents/agent-*.jsonl) reads as its conversation`;
}

/** One reply of the model: its blocks (one record each, same `message.id`), the results logged since, and its usage. */
interface Turn {
  id: unknown;
  blocks: unknown[];
  results: Block[];
  best?: ClaudeRecord;
}

const outputOf = (r: ClaudeRecord | undefined) =>
  isRecord(r?.message.usage) ? Number(r.message.usage.output_tokens) || 0 : 0;

/**
 * A Claude Code session log as our messages, with the model and the usage of its newest
 * reply. As Claude Code logs it, a reply is one record per content block (same `message.id`),
 * and the tools of parallel calls start as soon as their block is written, so their results
 * can be logged between the reply's records: they are joined into one assistant message
 * followed by every result logged before the next reply. A record logged twice (same `uuid`,
 * Claude Code rewrites some) is read once, as last written. Records of subagents
 * (`isSidechain: true`) are left out of a main session (their final answers are the Task
 * tool's results), and `detail` says how many records of how many runs; a subagent's own
 * file, all sidechain, is read as its conversation (said in `detail`). After a `/compact` only what follows the last `compact_boundary` is read, as
 * Claude Code itself does (its summary is the first user message). Each assistant message
 * carries the usage Anthropic reported for its request in `metadata.reportedUsage` (a
 * streamed reply's records repeat the usage so far: the largest is taken once), except
 * Claude Code's own `<synthetic>` replies.
 *
 * @example
 * const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
 * const { messages, model, reported } = fromClaudeCode(lines);
 */
export function fromClaudeCode(records: readonly unknown[], options: ConvertOptions = {}): LogReading {
  const conversation = conversationOf(records);
  const { kept } = conversation;
  const messages: { role: string; content: unknown }[] = [];
  const usages: (ReportedUsage | undefined)[] = [];
  let turn: Turn | undefined;
  let last: ClaudeRecord | undefined;
  const close = () => {
    if (turn === undefined) return;
    messages.push({ role: 'assistant', content: turn.blocks });
    if (turn.results.length > 0) messages.push({ role: 'user', content: turn.results });
    usages.push(reportedAnthropicUsage(turn.best?.message.usage));
    if (turn.best !== undefined) last = turn.best;
    turn = undefined;
  };
  for (const r of kept) {
    const { role, content, id } = r.message;
    const blocks: unknown[] = Array.isArray(content) ? content : [{ type: 'text', text: String(content ?? '') }];
    if (role === 'assistant') {
      if (turn === undefined || id === undefined || id !== turn.id) {
        close();
        turn = { id, blocks: [], results: [] };
      }
      turn.blocks.push(...blocks);
      if (r.message.model !== '<synthetic>' && outputOf(r) >= outputOf(turn.best)) turn.best = r;
      continue;
    }
    const results = blocks.filter((b): b is Block => isRecord(b) && b.type === 'tool_result');
    const rest = Array.isArray(content) ? blocks.filter((b) => !results.includes(b as Block)) : [];
    if (turn !== undefined && results.length > 0) turn.results.push(...results);
    else if (results.length > 0) messages.push({ role: 'user', content: results });
    if (results.length > 0 && rest.length === 0) continue;
    close();
    messages.push({ role: 'user', content: Array.isArray(content) ? rest : content });
  }
  close();
  const read = withReportedUsage(anthropicMessages({ messages }), usages);
  return {
    messages: checkedTranscript(read, options),
    ...logExtras({
      model: typeof last?.message.model === 'string' ? last.message.model : undefined,
      reported: reportedAnthropicUsage(last?.message.usage),
      detail: detailOf(conversation),
    }),
  };
}
