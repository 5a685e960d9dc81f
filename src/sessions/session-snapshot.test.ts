import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { countingReads, runLongSession, type StoreRead } from '../test-support/long-session.js';
import { freshSpecs, type OpenStore, openStore } from '../test-support/store-backends.js';
import { mockModel } from '../testing/mock-model.js';
import { FileSessionStore } from './file-store.js';
import { decodeEntry } from './records.js';
import { MemorySessionStore, type SessionStore } from './store.js';

const STEPS = 1_000;
const TENTH = STEPS / 10;
const inTenth = (step: number) => step <= TENTH || step > STEPS - TENTH;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The long session (test-support/long-session.ts), compacted under an 8,000-token window or not; at
 * every step of the first and the last tenth a fresh session object loads it, and what that load
 * read from the store is recorded. `known`: every load goes through one store object, so this
 * process knows the log from the load before (known-logs.ts); else each through a store object of
 * its own, as a process that never read the session.
 */
async function longSession(store: SessionStore, compacted = true, known = false) {
  const loads = new Map<number, StoreRead>();
  const reads: StoreRead[] = [];
  const shared = countingReads(store, reads);
  const reader = createAgent({ provider: mockModel([]) });
  const session = await runLongSession(store, {
    id: 'long',
    steps: STEPS,
    compacted,
    atStep: async (step) => {
      if (!inTenth(step)) return;
      reads.length = 0;
      await reader.session({ id: 'long', store: known ? shared : countingReads(store, reads) }).load();
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

const stores = await freshSpecs({ withMemory: true });
const opened: OpenStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

describe.each(stores.map((spec) => [spec.kind, spec] as const))(
  'a long uncompacted session on the %s store, opened again in a process that knew it',
  (_kind, spec) => {
    it('reads only what came after what the process knew: at step 1,000, and the median over the last tenth, within twice step 100 and the first tenth', async () => {
      const open = await openStore(spec);
      opened.push(open);
      const { loads, session, whole } = await longSession(open.store, false, true);
      // The median: the first load of each tenth reads all that came since the load it last knew of.
      const median = (from: number, to: number, measure: keyof StoreRead) => {
        const values = [...loads].filter(([step]) => step >= from && step <= to).map(([, r]) => r[measure]);
        return values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
      };
      const logBytes = whole.entries.reduce((n, e) => n + Buffer.byteLength(e), 0);
      const [at100, at1000] = [loads.get(TENTH) as StoreRead, loads.get(STEPS) as StoreRead];
      expect(at1000.bytes, `bytes read at step 1,000 (${at1000.bytes}) and at step 100 (${at100.bytes})`).toBeLessThan(
        2 * at100.bytes,
      );
      for (const measure of ['bytes', 'entries'] as const)
        expect(median(STEPS - TENTH + 1, STEPS, measure), measure).toBeLessThan(2 * median(1, TENTH, measure));
      expect(at1000.bytes * 100, 'a load reads a small part of the log').toBeLessThan(logBytes);
      // What it read is the session: a process that never read it reads the same.
      const fresh = createAgent({ provider: mockModel([]) }).session({
        id: 'long',
        store: countingReads(open.store, []),
      });
      await fresh.load();
      expect(fresh.messages).toEqual(session.messages);
      expect(fresh.messages).toHaveLength(2 * STEPS + 2);
    }, 300_000); // 1,000 steps saved and 200 loads, on a server too
  },
);
