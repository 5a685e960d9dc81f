import type { SessionRecord } from './records.js';
import type { SessionStore } from './store.js';

/**
 * What this process last knew of a session's log: the state as a snapshot record (copies, which
 * later changes leave alone), the version it was read or written at, the entry that brought the log
 * there, and the characters a read from the newest snapshot would take (its snapshot, the rest).
 */
export interface KnownLog {
  record: Extract<SessionRecord, { type: 'snapshot' }>;
  version: number;
  last: string;
  snapshotChars: number;
  sinceChars: number;
}

/** At most this many characters of state are kept for the sessions this process knows (about 64 MB of text). */
const MAX_KNOWN_CHARS = 64 * 1024 * 1024;

/** Every log this process knows, oldest first, by store and id (see keyOf); one map, so one bound over every store. */
const known = new Map<string, KnownLog>();
const storeNumbers = new WeakMap<SessionStore, number>();
let stores = 0;
let knownChars = 0;
const sizeOf = (log: KnownLog) => log.snapshotChars + log.sinceChars;

/** The key of a session of a store: a number per store object (a store no one holds any more is never asked again) and the id. */
function keyOf(store: SessionStore, id: string): string {
  let number = storeNumbers.get(store);
  if (number === undefined) {
    number = ++stores;
    storeNumbers.set(store, number);
  }
  return `${number}:${id}`;
}

/**
 * Remembers what this process knows of a session's log, so a session object opened on it later here
 * reads only what was appended since (the store's readAfter() checks that the log still ends there)
 * instead of the log from its newest snapshot: a worker that drives a session again after an
 * approval, or a load() of a long session, costs what changed. The least recently known go first.
 */
export function rememberLog(store: SessionStore, id: string, log: KnownLog): void {
  forgetLog(store, id);
  if (sizeOf(log) > MAX_KNOWN_CHARS / 4) return;
  known.set(keyOf(store, id), log);
  knownChars += sizeOf(log);
  for (const [oldest, entry] of known) {
    if (knownChars <= MAX_KNOWN_CHARS) break;
    known.delete(oldest);
    knownChars -= sizeOf(entry);
  }
}

/** What this process knows of the session's log, if anything. */
export function knownLog(store: SessionStore, id: string): KnownLog | undefined {
  return known.get(keyOf(store, id));
}

/** Forgets the session's log (it was deleted, or a read of it failed). */
export function forgetLog(store: SessionStore, id: string): void {
  const key = keyOf(store, id);
  const entry = known.get(key);
  if (entry === undefined) return;
  known.delete(key);
  knownChars -= sizeOf(entry);
}
