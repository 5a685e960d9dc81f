import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { countingReads, runLongSession, type StoreRead } from '../test-support/long-session.js';
import { mockModel } from '../testing/mock-model.js';
import { FileSessionStore } from './file-store.js';
import { decodeEntry } from './records.js';
import { MemorySessionStore, type SessionStore } from './store.js';

const STEPS = 1_000;
const TENTH = STEPS / 10;
const inTenth = (step: number) => step <= TENTH || step > STEPS - TENTH;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The long session (test-support/long-session.ts), compacted under an 8,000-token window; at
 * every step of the first and the last tenth a fresh session object loads it, and what that
 * load read from the store is recorded.
 */
async function longSession(store: SessionStore) {
  const loads = new Map<number, StoreRead>();
  const reads: StoreRead[] = [];
  const watched = countingReads(store, reads);
  const reader = createAgent({ provider: mockModel([]) });
  const session = await runLongSession(store, {
    id: 'long',
    steps: STEPS,
    compacted: true,
    atStep: async (step) => {
      if (!inTenth(step)) return;
      reads.length = 0;
      await reader.session({ id: 'long', store: watched }).load();
      loads.set(
        step,
        reads.reduce((sum, r) => ({ entries: sum.entries + r.entries, bytes: sum.bytes + r.bytes })),
      );
    },
  });
  return { loads, session, whole: await store.read('long') };
}

describe.each([
  ['memory', async () => new MemorySessionStore()],
  ['file', async () => new FileSessionStore({ dir: await mkdtemp(join(tmpdir(), 'lousho-snapshot-')) })],
] as const)('a long session on the %s store', (_kind, makeStore) => {
  it('opens from its newest snapshot: what a load reads at step 1,000, and over the last tenth, is within twice step 100 and the first tenth', async () => {
    const store = await makeStore();
    const { loads, session, whole } = await longSession(store);
    const at100 = loads.get(TENTH) as StoreRead;
    const at1000 = loads.get(STEPS) as StoreRead;
    const first = [...loads].filter(([step]) => step <= TENTH).map(([, read]) => read);
    const last = [...loads].filter(([step]) => step > STEPS - TENTH).map(([, read]) => read);
    const logBytes = whole.entries.reduce((n, e) => n + Buffer.byteLength(e), 0);
    expect([first.length, last.length]).toEqual([TENTH, TENTH]);
    expect(at1000.bytes, `bytes read at step 1,000 (${at1000.bytes}) and at step 100 (${at100.bytes})`).toBeLessThan(
      2 * at100.bytes,
    );
    for (const measure of ['bytes', 'entries'] as const) {
      const [before, after] = [mean(first.map((r) => r[measure])), mean(last.map((r) => r[measure]))];
      expect(after, `${measure} a load reads, mean over the last tenth and the first`).toBeLessThan(2 * before);
    }
    for (const read of last) expect(read.bytes * 10, 'a load reads a small part of the log').toBeLessThan(logBytes);
    // What it read is the session: a load of the whole log gives the same state.
    const reopened = createAgent({ provider: mockModel([]) }).session({ id: 'long', store });
    await reopened.load();
    expect(reopened.messages).toEqual(session.messages);
    expect(whole.entries.flatMap(decodeEntry).filter((r) => r.type === 'snapshot').length).toBeGreaterThan(10);
    const checkpoints = await reopened.checkpoints();
    expect(checkpoints.map((c) => c.id)).toEqual(checkpoints.map((_c, i) => `cp-${i + 1}`));
    expect(checkpoints.every((c) => c.tokens > 0)).toBe(true);
  }, 300_000);
});
