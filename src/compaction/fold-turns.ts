import { contentText } from '../messages/content.js';
import { isPinned } from '../messages/pin.js';
import { groupTurns, latestAssistantTurn, type Turn } from '../messages/turns.js';
import type { Message, UserMessage } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import { pruneToolResults } from './prune-tool-results.js';
import { protectedTailStart } from './sizes.js';
import { type CompactionInput, type CompactionResult, messageCounter } from './types.js';

/** The name of the hook's next step when pruning is not enough (appliedStrategy of its compactions). */
export const FOLD_STEP_NAME = 'fold-turns';
/** The first characters of a fold marker. */
export const FOLD_HEADER = '[folded: ';
/** Characters of one call (or user message) in a fold marker's list. */
const ENTRY_MAX_CHARS = 100;

/** What a fold marker remembers in its metadata, so the next fold can merge it. */
interface FoldRecord {
  turns: number;
  messages: number;
  /** Short forms of the folded calls and user messages, oldest first (only the newest are kept). */
  entries: string[];
}

/** What a fold marker remembers, or undefined for any other message (or a record that is not one). */
function foldRecordOf(message: Message): FoldRecord | undefined {
  if (message.role !== 'user') return undefined;
  const record = message.metadata?.folded as Partial<FoldRecord> | undefined;
  if (typeof record !== 'object' || record === null) return undefined;
  const { turns, messages, entries } = record;
  if (typeof turns !== 'number' || typeof messages !== 'number' || !Array.isArray(entries)) return undefined;
  return { turns, messages, entries: entries.filter((e): e is string => typeof e === 'string') };
}

/** True for a message written by a fold. */
export function isFoldMarker(message: Message): boolean {
  return foldRecordOf(message) !== undefined;
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ENTRY_MAX_CHARS ? `${flat.slice(0, ENTRY_MAX_CHARS)}…` : flat;
}

/** The short forms a folded message leaves in the marker: its calls, or a user's words. */
function entriesOf(message: Message): string[] {
  const record = foldRecordOf(message);
  if (record !== undefined) return record.entries;
  if (message.role === 'assistant')
    return (message.toolCalls ?? []).map((c) => `${c.name}(${cut(argumentsText(c.arguments))})`);
  if (message.role === 'user') return [`user: ${cut(contentText(message.content))}`];
  return [];
}

/** The one user message that stands for the folded turns; its list keeps the newest entries within `maxChars`. */
export function foldMarker(record: FoldRecord, maxChars: number): UserMessage {
  const kept: string[] = [];
  let length = 0;
  for (let i = record.entries.length - 1; i >= 0; i--) {
    const entry = record.entries[i] as string;
    if (length + entry.length + 2 > maxChars) break;
    kept.unshift(entry);
    length += entry.length + 2;
  }
  const dropped = record.entries.length - kept.length;
  const list =
    kept.length === 0 ? '' : ` ${dropped > 0 ? 'The latest calls' : 'Their calls'}, oldest first: ${kept.join('; ')}.`;
  const content =
    `${FOLD_HEADER}${record.turns} earlier turns (${record.messages} messages) were removed to keep the conversation ` +
    `in the context window; their tool results had been pruned.${list} Call a tool again if you need a result.]`;
  return { role: 'user', content, metadata: { folded: { ...record, entries: kept } } };
}

/** True when a turn may be folded: no system, pinned or summary message, and not the task (the first user message). */
function foldable(messages: readonly Message[], turn: Turn, firstUser: number): boolean {
  for (let i = turn.start; i < turn.end; i++) {
    const m = messages[i] as Message;
    if (m.role === 'system' || isPinned(m) || m.metadata?.summary === true || i === firstUser) return false;
  }
  return true;
}

/**
 * The hook's next step when pruning has nothing left to take: removes the oldest turns
 * before the protected tail (never system, pinned or summary messages, the first user
 * message, or the latest assistant turn) and puts one short marker turn where the first
 * of them was, listing the newest of their calls. It folds oldest first and stops as soon
 * as the request is at or below `targetTokens`. An earlier fold marker in the range is
 * merged into the new one, so a long run holds one marker. Returns the input array when
 * nothing can be folded or folding would not make the request smaller.
 */
export function foldTurns(input: CompactionInput, targetTokens: number, markerMaxChars: number): CompactionResult {
  const { messages } = input;
  const tokensBefore = input.estimateTokens(messages);
  const unchanged = { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds: [] };
  if (tokensBefore <= targetTokens) return unchanged;
  const count = messageCounter(input);
  const turns = groupTurns(messages);
  let keepFrom = Math.min(protectedTailStart(messages, input.protectedTokens, count), messages.length - 1);
  const latest = latestAssistantTurn(messages, turns);
  if (latest !== undefined) keepFrom = Math.min(keepFrom, latest.start);
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const folded: number[] = [];
  const record: FoldRecord = { turns: 0, messages: 0, entries: [] };
  // The marker's list is capped at markerMaxChars: count it at its largest while folding
  // (a character is at most half a token in a list of calls), and build it once at the end.
  const ceiling = count(foldMarker({ turns: 1e6, messages: 1e6, entries: [] }, 0)) + Math.ceil(markerMaxChars / 2);
  let size = tokensBefore + ceiling;
  for (const turn of turns) {
    if (turn.end > keepFrom) break;
    if (!foldable(messages, turn, firstUser)) continue;
    for (let i = turn.start; i < turn.end; i++) {
      const m = messages[i] as Message;
      const previous = foldRecordOf(m);
      record.turns += previous?.turns ?? (i === turn.start ? 1 : 0);
      record.messages += previous?.messages ?? 1;
      record.entries.push(...entriesOf(m));
      folded.push(i);
      size -= count(m);
    }
    if (size <= targetTokens) break;
  }
  if (folded.length === 0) return unchanged;
  const marker = foldMarker(record, markerMaxChars);
  if (tokensBefore - size + ceiling - count(marker) <= 0) return unchanged;
  const drop = new Set(folded);
  const out: Message[] = [];
  messages.forEach((m, i) => {
    if (i === folded[0]) out.push(marker);
    if (!drop.has(i)) out.push(m);
  });
  return { messages: out, tokensBefore, tokensAfter: input.estimateTokens(out), prunedToolCallIds: [] };
}

/** Characters a fold marker's list of calls may take: a tenth of the low-water mark's tokens, 300 to 2,000. */
export function foldMarkerChars(lowWaterTokens: number): number {
  return Math.min(2_000, Math.max(300, Math.floor(lowWaterTokens / 10)));
}

/**
 * The step after pruning, when pruning alone leaves the request above the threshold (or
 * frees too little to pay for the cache it breaks): prune what is left outside the
 * protected tail, then fold the oldest turns, whose results are markers by then, into one
 * short marker turn until the request is at or below `lowWaterTokens`. No model call.
 * Returns the input array when it changes nothing.
 */
export function pruneThenFold(input: CompactionInput, lowWaterTokens: number): CompactionResult {
  const pruned = pruneToolResults(input);
  const folded = foldTurns({ ...input, messages: pruned.messages }, lowWaterTokens, foldMarkerChars(lowWaterTokens));
  if (folded.messages === pruned.messages) return pruned;
  return {
    ...folded,
    tokensBefore: pruned.tokensBefore,
    prunedToolCallIds: pruned.prunedToolCallIds,
    appliedStrategy: FOLD_STEP_NAME,
  };
}
