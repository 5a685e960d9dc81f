import { isPrunedMarker } from '../compaction/marker.js';
import { TranscriptCounter } from '../compaction/transcript-counter.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { messagesTokens, tokenProfile } from '../models/estimate-tokens.js';
import { decodeEntry, type SessionRecord } from '../sessions/records.js';
import { SessionState } from '../sessions/session-state.js';
import type { ReportData, ReportMark, ReportStep } from './report-data.js';
import { reportMakeup } from './report-makeup.js';
import { type ReportWindowOptions, reportWindow } from './report-window.js';

/** How far from the end a rewrite's kept copy of the newest message is looked for. */
const TAIL_SEARCH = 8;

/** The messages a rewrite appended after its compacted transcript: the step's new reply, usually. */
function appendedTail(before: readonly Message[], rewritten: readonly Message[]): Message[] {
  const last = before.at(-1);
  if (last === undefined) return [];
  const text = JSON.stringify(last);
  for (let i = rewritten.length - 1; i >= Math.max(0, rewritten.length - TAIL_SEARCH); i--) {
    if (JSON.stringify(rewritten[i]) === text) return rewritten.slice(i + 1);
  }
  // The newest message itself was cut (a recovery): a reply after it is still new.
  const end = rewritten.at(-1);
  return end?.role === 'assistant' && last.role !== 'assistant' ? [end] : [];
}

/** What a compaction did, read from the transcript before and after it. */
function compactionDetail(before: readonly Message[], after: readonly Message[]): string {
  const markers = (list: readonly Message[]) =>
    list.filter((m) => m.role === 'tool' && isPrunedMarker(contentText(m.content))).length;
  const summaries = new Set(before.filter((m) => m.metadata?.summary === true).map((m) => contentText(m.content)));
  const summarized = after.some((m) => m.metadata?.summary === true && !summaries.has(contentText(m.content)));
  const parts = [`${Math.max(0, markers(after) - markers(before))} tool results pruned`];
  if (summarized) parts.push('old turns summarized');
  parts.push(`${before.length} -> ${after.length} messages`);
  return parts.join(', ');
}

/**
 * The report of a FileSessionStore log, replayed record by record as the session reads it:
 * each checkpoint after a new model reply is a step, sized as the transcript the session saved
 * there less that reply (the request that produced it); each `rewrite` that shrank the
 * transcript is a compaction, marked at the step it came before with the sizes on either side;
 * each rewind is marked too. Turns are numbered through.
 */
export function sessionLogReport(title: string, text: string, options: ReportWindowOptions): ReportData {
  const profile = tokenProfile(options.model);
  const state = new SessionState();
  const counter = new TranscriptCounter();
  const steps: ReportStep[] = [];
  const marks: ReportMark[] = [];
  const produced: Message[] = [];
  const stepOf = new Map<string, number>();
  let saved: { tokens: number; messages: Message[]; length: number } | undefined;
  let reply: Message | undefined; // a model reply added since the last checkpoint
  let open: { mark: ReportMark; appended: Message[] } | undefined; // a compaction awaiting its checkpoint
  const turns = new Set<number>();
  /** The transcript's size now: the last checkpoint's when nothing changed since, else counted. */
  const sizeNow = () =>
    saved !== undefined && saved.messages === state.messages && saved.length === state.messages.length
      ? saved.tokens
      : counter.count(state.messages, profile);
  const added = (messages: readonly Message[]) => {
    produced.push(...messages);
    const last = messages.findLast((m) => m.role === 'assistant');
    if (last !== undefined) reply = last;
  };

  function before(record: SessionRecord): void {
    if (record.type === 'messages') added(record.messages);
    else if (record.type === 'tool.results') {
      for (const id of record.toolCallIds) {
        const result = state.pending?.results.get(id);
        if (result !== undefined) produced.push(result);
      }
    } else if (record.type === 'rewrite') {
      const tokensBefore = sizeNow();
      const appended = appendedTail(state.messages, record.messages);
      added(appended);
      const compacted = record.messages.slice(0, record.messages.length - appended.length);
      const tokensAfter = messagesTokens(compacted, profile);
      if (tokensAfter >= tokensBefore) return; // not a compaction: the system prompt joined, say
      const detail = compactionDetail(state.messages, compacted);
      const mark: ReportMark = {
        step: steps.length + 1,
        kind: 'compaction',
        what: 'rewritten in the log',
        tokensBefore,
        tokensAfter,
        detail,
      };
      marks.push(mark);
      open = { mark, appended };
    } else if (record.type === 'rewind') {
      marks.push({
        step: steps.length + 1,
        kind: 'rewind',
        what: `rewound to ${record.to ?? 'the empty session'}`,
        tokensBefore: sizeNow(),
      });
    }
  }

  function after(record: SessionRecord): void {
    if (record.type === 'rewind') (marks.at(-1) as ReportMark).tokensAfter = counter.count(state.messages, profile);
    if (record.type !== 'checkpoint') return;
    const { checkpoint } = record;
    saved = { tokens: checkpoint.tokens, messages: state.messages, length: state.messages.length };
    if (open !== undefined) {
      open.mark.tokensAfter = Math.max(0, checkpoint.tokens - messagesTokens(open.appended, profile));
      open = undefined;
    }
    const at = reply === undefined ? -1 : state.messages.lastIndexOf(reply);
    reply = undefined;
    if (at < 0) return;
    const replyMessage = state.messages[at] as Message;
    const step = steps.length + 1;
    turns.add(checkpoint.turn);
    steps.push({
      step,
      tokens: Math.max(0, checkpoint.tokens - messagesTokens(state.messages.slice(at), profile)),
      label: `turn ${checkpoint.turn}, step ${checkpoint.step}`,
    });
    if (replyMessage.role === 'assistant') for (const call of replyMessage.toolCalls ?? []) stepOf.set(call.id, step);
  }

  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    for (const record of decodeEntry(line)) {
      before(record);
      state.apply(record);
      after(record);
    }
  }
  if (turns.size <= 1) for (const step of steps) delete step.label;
  return {
    title,
    source: 'read as a FileSessionStore log',
    sizes:
      "the transcript's size at each checkpoint the session saved, less the step's reply (the session estimated it; the log holds no tool definitions)",
    ...reportWindow(options),
    steps,
    marks,
    ...reportMakeup(produced, state.messages, profile, stepOf),
    notes: [
      'A session log records each compaction as the transcript it left (a rewrite), not what made it: an overflow recovery shows as a compaction too.',
    ],
  };
}
