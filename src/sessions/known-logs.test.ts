import { describe, expect, it } from 'vitest';
import { forgetLog, type KnownLog, knownLog, rememberLog } from './known-logs.js';
import { SessionState } from './session-state.js';
import { snapshotRecord } from './state-snapshot.js';
import { MemorySessionStore } from './store.js';

const log = (chars: number): KnownLog => ({
  record: snapshotRecord(new SessionState()),
  version: 1,
  last: 'x',
  snapshotChars: chars,
  sinceChars: 0,
});

describe('what this process knows of session logs', () => {
  it('keeps the most recently known, up to one bound over every store, the oldest going first', () => {
    const kept = new MemorySessionStore();
    rememberLog(kept, 's', log(1_000));
    // Stores read once and dropped (a store object per read) must not push out the one in use.
    for (let n = 0; n < 80; n++) {
      rememberLog(new MemorySessionStore(), 's', log(1_000_000));
      rememberLog(kept, 's', log(1_000));
    }
    expect(knownLog(kept, 's')?.snapshotChars).toBe(1_000);
    const first = new MemorySessionStore();
    rememberLog(first, 's', log(10_000_000));
    for (let n = 0; n < 8; n++) rememberLog(new MemorySessionStore(), 's', log(10_000_000));
    expect(knownLog(first, 's'), 'the oldest went once the bound (64 MB of text) was reached').toBeUndefined();
    expect(knownLog(new MemorySessionStore(), 's')).toBeUndefined();
    forgetLog(kept, 's');
    expect(knownLog(kept, 's')).toBeUndefined();
  });
});
