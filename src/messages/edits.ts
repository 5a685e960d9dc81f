/**
 * Edits of a transcript other than appending at its end, noted by the code that makes them,
 * so that what keeps a view of a transcript that grows (the TranscriptCounter, a framework's
 * conversation) learns where it changed without comparing every message again: comparing the
 * references of 2,000 messages cost 0.06 ms inside the AI SDK's loop, whose own work between
 * two of our calls leaves the arrays out of the cache, and it was done four times a step.
 * Appending needs no note. Our code notes every edit it makes (a compaction, the executor's
 * fit, tool results put in call order, a session's tail record); after a hook of yours the
 * executor notes an edit from the start (afterHook); an edit that other code makes in place
 * outside any hook is found by the checks of the one who reads (see TranscriptCounter).
 */

/** The newest edits each transcript keeps: a reader further behind compares the whole transcript again. */
const KEPT = 32;

interface EditLog {
  /** How many edits came before the first one kept. */
  base: number;
  /** The first index each kept edit changed, oldest first. */
  froms: number[];
}

const logs = new WeakMap<readonly unknown[], EditLog>();

/** Notes that `list` changed from index `from` on (messages replaced, inserted or removed there), other than by appending. */
export function noteEdit(list: readonly unknown[], from: number): void {
  let log = logs.get(list);
  if (log === undefined) {
    log = { base: 0, froms: [] };
    logs.set(list, log);
  }
  log.froms.push(Math.max(0, from));
  if (log.froms.length > KEPT) {
    log.froms.shift();
    log.base++;
  }
}

/** How many edits `list` has had so far: where {@link editedSince} starts. */
export function editCount(list: readonly unknown[]): number {
  const log = logs.get(list);
  return log === undefined ? 0 : log.base + log.froms.length;
}

/**
 * The first index of `list` that an edit noted after the first `count` changed, or undefined
 * when there was none; 0 when the edits kept no longer reach back that far.
 */
export function editedSince(list: readonly unknown[], count: number): number | undefined {
  const log = logs.get(list);
  if (log === undefined || count >= log.base + log.froms.length) return undefined;
  if (count < log.base) return 0;
  let first = Number.POSITIVE_INFINITY;
  for (let i = count - log.base; i < log.froms.length; i++) first = Math.min(first, log.froms[i] as number);
  return first;
}

/** Hooks of ours that note every edit they make: the executor notes none after them. */
const noting = new WeakSet<object>();

/** Marks `hook` as one that notes every edit it makes to a transcript (the compaction hook). */
export function notesItsEdits<T extends object>(hook: T): T {
  noting.add(hook);
  return hook;
}

/**
 * After `hook` had the transcript `list` (a hook of yours may replace any message), notes an
 * edit from its start, unless the hook notes its own: the next count compares every reference
 * again, so a message a hook of yours replaced anywhere is counted at once, as documented.
 */
export function afterHook(hook: object, list: readonly unknown[]): void {
  if (!noting.has(hook)) noteEdit(list, 0);
}
