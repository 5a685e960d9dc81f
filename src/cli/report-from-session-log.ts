import { isPrunedMarker } from '../compaction/marker.js';
import { TranscriptCounter } from '../compaction/transcript-counter.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { messagesTokens, tokenProfile } from '../models/estimate-tokens.js';
import { fileLogEntries } from '../sessions/file-log-lines.js';
import { decodeEntry, type SessionRecord } from '../sessions/records.js';
import { SessionState } from '../sessions/session-state.js';
import type { ReportData, ReportMark, ReportStep } from './report-data.js';
import { reportMakeup } from './report-makeup.js';
import { type ReportWindowOptions, reportWindow } from './report-window.js';
import { transcriptTokens } from './transcript-count.js';

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

/**
 * What a compaction did, read from the messages it removed and those it wrote in their place
 * (the whole transcript before and after it for a rewrite, the changed end for a tail).
 */
function compactionDetail(removed: readonly Message[], written: readonly Message[], lengths: [number, number]): string {
  const markers = (list: readonly Message[]) =>
    list.filter((m) => m.role === 'tool' && isPrunedMarker(contentText(m.content))).length;
  const summaries = new Set(removed.filter((m) => m.metadata?.summary === true).map((m) => contentText(m.content)));
  const summarized = written.some((m) => m.metadata?.summary === true && !summaries.has(contentText(m.content)));
  const parts = [`${Math.max(0, markers(written) - markers(removed))} tool results pruned`];
  if (summarized) parts.push('old turns summarized');
  parts.push(`${lengths[0]} -> ${lengths[1]} messages`);
  return parts.join(', ');
}

/**
 * The report of a FileSessionStore log, replayed record by record as the session reads it:
 * each checkpoint after a new model reply is a step, sized as the transcript the session saved
 * there less that reply (the request that produced it); each `rewrite` or `snapshot` (how a
 * session saves a compaction's transcript) and each `tail` (how an Agents SDK session saves
 * one that changed the transcript's end) that shrank the transcript is a compaction, marked at
 * the step it came before with the sizes on either side; each rewind is marked too. Turns are
 * numbered through.
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

  /**
   * A rewrite or tail that replaced `removed` (the transcript's end, or all of it) with
   * `written` and `appended` after it: the appended messages are new, and the change is a
   * compaction when it made the transcript smaller (not when the system prompt joined, say).
   */
  function changed(removed: readonly Message[], written: Message[], appended: Message[], length: number): void {
    const tokensBefore = sizeNow();
    added(appended);
    const kept = state.messages.slice(0, state.messages.length - removed.length);
    // The counter recounts only what differs from what it counted last: for a tail, what it wrote.
    const tokensAfter = counter.count([...kept, ...written], profile);
    if (tokensAfter >= tokensBefore) return;
    const mark: ReportMark = {
      step: steps.length + 1,
      kind: 'compaction',
      what: 'rewritten in the log',
      tokensBefore,
      tokensAfter,
      detail: compactionDetail(removed, written, [state.messages.length, length - appended.length]),
    };
    marks.push(mark);
    open = { mark, appended };
  }

  function before(record: SessionRecord): void {
    if (record.type === 'messages') added(record.messages);
    else if (record.type === 'tool.results') {
      for (const id of record.toolCallIds) {
        const result = state.pending?.results.get(id);
        if (result !== undefined) produced.push(result);
      }
    } else if (record.type === 'rewrite' || record.type === 'snapshot') {
      const appended = appendedTail(state.messages, record.messages);
      const compacted = record.messages.slice(0, record.messages.length - appended.length);
      changed(state.messages, compacted, appended, record.messages.length);
    } else if (record.type === 'tail') {
      // Only the end changed: the newest message kept means all the tail writes is new.
      const kept = record.keep === state.messages.length;
      const appended = kept ? record.messages : appendedTail(state.messages, record.messages);
      const written = record.messages.slice(0, record.messages.length - appended.length);
      changed(state.messages.slice(record.keep), written, appended, record.keep + record.messages.length);
      saved = undefined; // the tail changes the array in place, maybe to one of the same length
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
    // Checkpoints saved before the tokenizer was loaded carry no size: count the transcript they close.
    const tokens = checkpoint.tokens ?? counter.count(state.messages, profile);
    saved = { tokens, messages: state.messages, length: state.messages.length };
    if (open !== undefined) {
      open.mark.tokensAfter = Math.max(0, tokens - messagesTokens(open.appended, profile));
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
      tokens: Math.max(0, tokens - messagesTokens(state.messages.slice(at), profile)),
      label: `turn ${checkpoint.turn}, step ${checkpoint.step}`,
    });
    if (replyMessage.role === 'assistant') for (const call of replyMessage.toolCalls ?? []) stepOf.set(call.id, step);
  }

  for (const line of fileLogEntries(text)) {
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
    // The transcript the log ends with, as inspect and compact read and count it.
    transcriptTokens: transcriptTokens({ messages: state.messages }, options.model),
    notes: [
      'A session log records each compaction as the transcript it left (a rewrite, or the end it rewrote: a tail), not what made it: an overflow recovery shows as a compaction too.',
    ],
  };
}
