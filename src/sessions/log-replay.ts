import { decodeEntry, type SessionRecord } from './records.js';
import { HistoryNeeded, LogInconsistent, SessionState } from './session-state.js';
import { restoreSnapshot } from './state-snapshot.js';
import type { SessionLogTail } from './store.js';

/** A log that is not one this library wrote: typed where the session reads it. */
export class UnreadableEntry extends Error {
  constructor(
    readonly index: number,
    readonly reason: unknown,
    readonly what = 'is not one this library wrote',
  ) {
    super('unreadable entry');
  }
}

function decodeAt(entry: string, index: number): SessionRecord[] {
  try {
    return decodeEntry(entry);
  } catch (cause) {
    throw new UnreadableEntry(index, cause);
  }
}

/**
 * Replays a log read from its newest snapshot: the snapshot record of its first entry, then
 * everything after it (a whole log is replayed from its start). HistoryNeeded when the first
 * entry holds no snapshot, or a record needs what came before it.
 */
export function replay(log: SessionLogTail): SessionState {
  const state = new SessionState();
  log.entries.forEach((entry, i) => {
    let records = decodeAt(entry, i);
    if (i === 0 && log.fromSnapshot) {
      const at = records.findLastIndex((r) => r.type === 'snapshot');
      const snapshot = records[at];
      if (snapshot?.type !== 'snapshot') throw new HistoryNeeded('no snapshot where the store said one starts');
      restoreSnapshot(state, snapshot);
      records = records.slice(at + 1);
    }
    try {
      for (const record of records) state.apply(record);
    } catch (error) {
      if (error instanceof LogInconsistent) throw new UnreadableEntry(i, error, 'does not follow from the ones before');
      throw error;
    }
  });
  return state;
}

/**
 * Applies entries read after a known version to `state` and says how many characters of
 * them a read from the newest snapshot would take: `snapshot` is the newest entry that holds
 * a snapshot (undefined: none among them), `since` the characters after it.
 */
export function applyAfter(state: SessionState, entries: string[]): { snapshot: number | undefined; since: number } {
  let snapshot: number | undefined;
  let since = 0;
  entries.forEach((entry, i) => {
    const records = decodeAt(entry, i);
    for (const record of records) state.apply(record);
    if (records.some((r) => r.type === 'snapshot')) [snapshot, since] = [entry.length, 0];
    else since += entry.length;
  });
  return { snapshot, since };
}
