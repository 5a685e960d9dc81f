import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { Child } from '../test-support/child-process.js';
import { rejection } from '../test-support/errors.js';
import { numberedEntry } from '../test-support/open-store.js';
import { pauseCases } from '../test-support/pause-cases.js';
import { killInNamespace, pidNamespaceProblem, startInNewPidNamespace } from '../test-support/pid-namespace.js';
import {
  freshSpec,
  type OpenStore,
  openStore,
  type StoreKind,
  serverProblems,
  skipWhenDown,
} from '../test-support/store-backends.js';
import { SESSION_FORMAT } from './serialize.js';
import { SessionLog } from './session-log.js';
import type { SessionStore } from './store.js';

/**
 * The conformance suite every store passes: memory, file, SQLite, and Redis and PostgreSQL
 * (reported as skipped, with the reason, when their server does not answer).
 */
const problems = await serverProblems();
const KINDS: StoreKind[] = ['memory', 'file', 'sqlite', 'redis', 'postgres'];

const opened: OpenStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

async function make(kind: StoreKind): Promise<SessionStore> {
  const open = await openStore(await freshSpec(kind));
  opened.push(open);
  return open.store;
}

const big = `${'x'.repeat(70_000)} é 漢字 🙂 "quoted" \\ back`;

/** Waits (polling) until `check` holds; the tests assert what happens, never how long it took. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the condition never held');
}

describe.each(KINDS)('%s session store', (kind) => {
  skipWhenDown(kind, problems);

  it('reads nothing, at version 0, for an id it never wrote', async () => {
    expect(await (await make(kind)).read('nobody')).toEqual({ entries: [], version: 0 });
  });

  it('appends entries and reads them back in order, exactly, with a new version after each', async () => {
    const store = await make(kind);
    const v1 = await store.append('s1', '["one"]', 0);
    const v2 = await store.append('s1', JSON.stringify([big]), v1);
    const v3 = await store.append('s1', SESSION_FORMAT, v2);
    expect(new Set([0, v1, v2, v3]).size).toBe(4);
    expect(await store.read('s1')).toEqual({
      entries: ['["one"]', JSON.stringify([big]), SESSION_FORMAT],
      version: v3,
    });
  });

  it('refuses an append at a version that moved with LOUSHO_SESSION_CONFLICT, writing nothing', async () => {
    const store = await make(kind);
    const v1 = await store.append('s1', 'a', 0);
    await store.append('s1', 'b', v1);
    const error = await rejection(store.append('s1', 'late', v1));
    expect(error.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect(error.message).toContain("'s1'");
    expect((await rejection(store.append('s1', 'late', 0))).code).toBe('LOUSHO_SESSION_CONFLICT');
    expect((await store.read('s1')).entries).toEqual(['a', 'b']);
  });

  it('lets exactly one of several appends at the same version in', async () => {
    const store = await make(kind);
    const v1 = await store.append('race', 'first', 0);
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => store.append('race', `w${n}`, v1)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason.code).toBe('LOUSHO_SESSION_CONFLICT');
    expect((await store.read('race')).entries).toHaveLength(2);
  });

  it('keeps ids apart, odd characters and prefixes of each other included', async () => {
    const store = await make(kind);
    const ids = ['a', 'a.b', 'a.lock', 'b/with:odd chars', '..', 'lease:a', 'ü 漢'];
    for (const id of ids) await store.append(id, `entry of ${id}`, 0);
    for (const id of ids) expect((await store.read(id)).entries).toEqual([`entry of ${id}`]);
  });

  it('deletes a session: it reads empty, starts again at version 0, and a writer of the old one conflicts', async () => {
    const store = await make(kind);
    const v1 = await store.append('d', 'old', 0);
    await store.append('keep', 'other', 0);
    await store.delete('d');
    await store.delete('never-written');
    expect(await store.read('d')).toEqual({ entries: [], version: 0 });
    expect((await rejection(store.append('d', 'stale', v1))).code).toBe('LOUSHO_SESSION_CONFLICT');
    await store.append('d', 'new', 0);
    expect((await store.read('d')).entries).toEqual(['new']);
    expect((await store.read('keep')).entries).toEqual(['other']);
  });

  it('reads from the newest snapshot entry on with readLatest(), at the version of the whole log', async () => {
    const store = await make(kind);
    const latest = (id: string) => (store.readLatest as NonNullable<SessionStore['readLatest']>).call(store, id);
    let v = await store.append('t', 'a', 0);
    v = await store.append('t', 'b', v);
    expect(await latest('t')).toEqual({ entries: ['a', 'b'], version: v, fromSnapshot: false });
    v = await store.append('t', 'snap-1', v, { snapshot: true });
    v = await store.append('t', 'c', v);
    v = await store.append('t', 'snap-2', v, { snapshot: true });
    v = await store.append('t', 'd', v);
    expect(await latest('t')).toEqual({ entries: ['snap-2', 'd'], version: v, fromSnapshot: true });
    expect((await store.read('t')).version).toBe(v);
    expect((await rejection(store.append('t', 'late', 0, { snapshot: true }))).code).toBe('LOUSHO_SESSION_CONFLICT');
    expect(await latest('t')).toEqual({ entries: ['snap-2', 'd'], version: v, fromSnapshot: true });
    await store.append('t', 'e', v);
    await store.delete('t');
    expect(await latest('t')).toEqual({ entries: [], version: 0, fromSnapshot: false });
    v = await store.append('t', 'x', 0);
    v = await store.append('t', 'y', v);
    expect(await latest('t')).toEqual({ entries: ['x', 'y'], version: v, fromSnapshot: false });
  });

  it('reads only what was appended after a version with readAfter(), and nothing when that entry is no longer there', async () => {
    const store = await make(kind);
    const readAfter = (id: string, version: number, last: string) =>
      (store.readAfter as NonNullable<SessionStore['readAfter']>).call(store, id, version, last);
    const v1 = await store.append('r', 'a', 0);
    const v2 = await store.append('r', JSON.stringify([big]), v1);
    expect(await readAfter('r', v2, JSON.stringify([big]))).toEqual({ entries: [], version: v2 });
    const v3 = await store.append('r', 'snap', v2, { snapshot: true });
    const v4 = await store.append('r', 'd 漢字', v3);
    expect(await readAfter('r', v2, JSON.stringify([big]))).toEqual({ entries: ['snap', 'd 漢字'], version: v4 });
    expect(await readAfter('r', v1, 'a')).toEqual({ entries: [JSON.stringify([big]), 'snap', 'd 漢字'], version: v4 });
    expect(await readAfter('r', v4, 'd 漢字')).toEqual({ entries: [], version: v4 });
    // Not the entry the log holds there: the caller's view is not the log's.
    expect(await readAfter('r', v4, 'other')).toBeUndefined();
    expect(await readAfter('r', v3, 'd 漢字')).toBeUndefined();
    expect(await readAfter('never', v1, 'a')).toBeUndefined();
    // Deleted and written again, to the same length: the old view does not continue it.
    await store.delete('r');
    expect(await readAfter('r', v1, 'a')).toBeUndefined();
    const w1 = await store.append('r', 'A', 0);
    expect(await readAfter('r', v1, 'a')).toBeUndefined();
    expect(await readAfter('r', w1, 'A')).toEqual({ entries: [], version: w1 });
  });

  it("keeps a log whose transcript's end was replaced (tail records, after a snapshot too) as its writer holds it", async () => {
    const store = await make(kind);
    const user = (content: string): Message => ({ role: 'user', content });
    const writer = new SessionLog(store, 'tail', () => '');
    await writer.append([{ type: 'messages', messages: [user('a'), user(big), user('c')] }]);
    await writer.append([{ type: 'tail', keep: 1, messages: [user('b')] }]);
    await writer.append([{ type: 'rewrite', messages: [user('s'), ...writer.state.messages] }]);
    await writer.append([{ type: 'messages', messages: [user('d')] }]);
    await writer.append([{ type: 'tail', keep: 3, messages: [user('e'), user('f')] }]);
    const reader = new SessionLog(store, 'tail', () => '');
    await reader.read();
    expect(reader.state.messages.map((m) => m.content)).toEqual(['s', 'a', 'b', 'e', 'f']);
    expect(reader.state.messages).toEqual(writer.state.messages);
  });

  it('rejects an empty id with LOUSHO_STORE_ID_INVALID', async () => {
    const store = await make(kind);
    expect((await rejection(store.read(''))).code).toBe('LOUSHO_STORE_ID_INVALID');
    expect((await rejection(store.append('', 'x', 0))).code).toBe('LOUSHO_STORE_ID_INVALID');
  });

  it('gives the lease to one holder at a time, until its holder releases it', async () => {
    const store = await make(kind);
    const first = await store.acquire('l', 'holder-a', 60_000);
    expect(first).toMatchObject({ acquired: true, holder: 'holder-a' });
    const second = await store.acquire('l', 'holder-b', 60_000);
    expect(second).toMatchObject({ acquired: false, holder: 'holder-a' });
    expect(second.expiresAt).toBeGreaterThan(Date.now());
    expect((await store.acquire('l', 'holder-a', 60_000)).acquired).toBe(true); // its holder again
    expect((await store.acquire('other-id', 'holder-b', 60_000)).acquired).toBe(true);
    await store.release('l', 'holder-b'); // not the holder: nothing happens
    expect((await store.acquire('l', 'holder-b', 60_000)).acquired).toBe(false);
    await store.release('l', 'holder-a');
    expect((await store.acquire('l', 'holder-b', 60_000)).acquired).toBe(true);
  });

  it('renews only its holder, and lets a holder known to be dead be taken over', async () => {
    const store = await make(kind);
    await store.acquire('r', 'holder-a', 60_000);
    expect(await store.renew('r', 'holder-a', 60_000)).toBe(true);
    expect(await store.renew('r', 'holder-b', 60_000)).toBe(false);
    expect((await store.acquire('r', 'holder-c', 60_000, 'holder-b')).acquired).toBe(false);
    expect((await store.acquire('r', 'holder-c', 60_000, 'holder-a')).acquired).toBe(true);
    expect(await store.renew('r', 'holder-a', 60_000)).toBe(false);
  });

  it('fences an append with its lease: made while its holder holds it, refused (writing nothing) once another took it or it was let go', async () => {
    const store = await make(kind);
    const refused = async (append: Promise<number>) =>
      expect((await rejection(append)).code).toBe('LOUSHO_SESSION_CONFLICT');
    await store.acquire('f', 'holder-a', 60_000);
    let v = await store.append('f', 'a1', 0, { holder: 'holder-a' });
    await refused(store.append('f', 'b1', v, { holder: 'holder-b' }));
    await store.acquire('f', 'holder-b', 60_000, 'holder-a'); // taken over, as from a dead holder
    await refused(store.append('f', 'a2', v, { holder: 'holder-a', snapshot: true }));
    expect(await store.readLatest?.('f')).toEqual({ entries: ['a1'], version: v, fromSnapshot: false });
    v = await store.append('f', 'b1', v, { holder: 'holder-b' });
    await store.release('f', 'holder-b');
    await refused(store.append('f', 'b2', v, { holder: 'holder-b' }));
    expect((await store.read('f')).entries).toEqual(['a1', 'b1']);
  });

  it('reads a lease without taking it: its holder and time left while held, nothing once let go, no time left once run out', async () => {
    const store = await make(kind);
    const read = (id: string) => (store.readLease as NonNullable<SessionStore['readLease']>).call(store, id);
    expect(await read('q')).toBeUndefined();
    await store.acquire('q', 'holder-a', 60_000);
    const held = await read('q');
    expect(held?.holder).toBe('holder-a');
    expect(held?.remainingMs).toBeGreaterThan(50_000);
    expect(held?.remainingMs).toBeLessThanOrEqual(60_000);
    expect((await store.acquire('q', 'holder-b', 60_000)).acquired).toBe(false); // reading took nothing
    await store.release('q', 'holder-a');
    expect(await read('q')).toBeUndefined();
    await store.acquire('q', 'gone', 100);
    await eventually(async () => ((await read('q'))?.remainingMs ?? 0) <= 0); // Redis forgets it; the others keep it, run out
  });

  it('lets a lease whose holder stopped renewing expire, so another takes it', async () => {
    const store = await make(kind);
    expect((await store.acquire('e', 'gone', 150)).acquired).toBe(true);
    await eventually(async () => (await store.acquire('e', 'next', 60_000)).acquired);
    expect(await store.renew('e', 'gone', 60_000)).toBe(false);
  });
});

describe.each(KINDS)('%s session store ids', (kind) => {
  skipWhenDown(kind, problems);

  it('refuses an id that is not valid Unicode, holds U+0000 or is over 128 UTF-8 bytes with LOUSHO_STORE_ID_INVALID', async () => {
    const store = await make(kind);
    const bad = ['a\uD800', 'a\uDC00', '\uDC00\uD800', 'nul\u0000', `${'é'.repeat(64)}x`, 'x'.repeat(129)];
    for (const id of bad) {
      for (const operation of [
        () => store.read(id),
        () => store.append(id, 'x', 0),
        () => store.delete(id),
        () => store.acquire(id, 'h', 1000),
        () => store.renew(id, 'h', 1000),
        () => store.release(id, 'h'),
      ]) {
        expect((await rejection(operation())).code, JSON.stringify(id)).toBe('LOUSHO_STORE_ID_INVALID');
      }
    }
    expect(await store.list?.()).toEqual([]);
  });

  it('keeps every valid id apart, U+FFFD, normalization forms, encoded look-alikes and 128-byte ids included', async () => {
    const store = await make(kind);
    const ids = [
      'a',
      'A',
      'a\uFFFD',
      '\uFFFD',
      'é',
      'e\u0301',
      '🙂',
      'a.',
      'a%2E',
      '%61',
      '=YQ',
      'é'.repeat(64),
      `${'é'.repeat(63)}e\u0301`.slice(0, 64),
      'x'.repeat(128),
    ];
    for (const id of ids) await store.append(id, `entry of ${JSON.stringify(id)}`, 0);
    for (const id of ids) expect((await store.read(id)).entries).toEqual([`entry of ${JSON.stringify(id)}`]);
    expect((await store.list?.())?.map((s) => s.id).sort()).toEqual([...ids].sort());
  });

  it('lists its sessions with the holder of each lease, for a cleanup process', async () => {
    const store = await make(kind);
    await store.append('one', 'x', 0);
    await store.append('two', 'y', 0);
    await store.acquire('two', 'worker-7', 60_000);
    await store.acquire('no-entries', 'worker-8', 60_000);
    const listed = (await store.list?.())?.sort((a, b) => a.id.localeCompare(b.id));
    expect(listed?.map(({ id, holder }) => ({ id, holder }))).toEqual([
      { id: 'one', holder: undefined },
      { id: 'two', holder: 'worker-7' },
    ]);
    expect(listed?.[1]?.expiresAt).toBeGreaterThan(Date.now());
  });
});

/** How many rounds the two-process race runs per store (LOUSHO_RACE_ROUNDS raises it). */
const RACE_ROUNDS = Number(process.env.LOUSHO_RACE_ROUNDS ?? 2000);

describe.each(KINDS)('%s session store fence', (kind) => {
  skipWhenDown(kind, problems);

  it(`accepts exactly one of two appends at the same version, from two processes, in each of ${RACE_ROUNDS} rounds`, async () => {
    const spec = await freshSpec(kind);
    const open = await openStore(spec);
    opened.push(open);
    const id = `race-${process.pid}`;
    let version = await open.store.append(id, 'seed', 0);
    // Two writers that share nothing but the store: two child processes (two async callers for memory).
    const writers =
      kind === 'memory'
        ? ['a', 'b'].map((name) => ({
            append: (v: number) =>
              open.store.append(id, name, v).then(
                (n) => `ok ${n}`,
                () => 'conflict',
              ),
            close: async () => {},
          }))
        : await Promise.all(
            ['a', 'b'].map(async (name) => {
              const child = await Child.start('store-worker.ts', ['race', JSON.stringify(spec), id, name]);
              await child.line((l) => l === 'ready');
              let answered = 1;
              return {
                append: async (v: number) => {
                  child.send(String(v));
                  await child.count(() => true, ++answered);
                  return child.lines[answered - 1] as string;
                },
                close: async () => {
                  child.send('end');
                  await child.finished();
                },
              };
            }),
          );
    let doubles = 0;
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const answers = await Promise.all(writers.map((w) => w.append(version)));
      const accepted = answers.filter((a) => a.startsWith('ok '));
      expect(
        answers.every((a) => a.startsWith('ok ') || a === 'conflict'),
        answers.join(),
      ).toBe(true);
      if (accepted.length !== 1) doubles++;
      version = Math.max(...accepted.map((a) => Number(a.slice(3))), version);
    }
    await Promise.all(writers.map((w) => w.close()));
    expect(doubles).toBe(0);
    expect((await open.store.read(id)).entries).toHaveLength(RACE_ROUNDS + 1);
  }, 600_000);
});

describe.each(KINDS)('%s session store, a writer paused past its lease', (kind) => {
  skipWhenDown(kind, problems);
  if (kind === 'memory') {
    it.skip('skipped: a memory store lives in one process, so no other process can take its sessions over', () => {});
    return;
  }
  pauseCases(() => freshSpec(kind));
});

describe.each(KINDS)('%s session store, a writer killed in another PID namespace', (kind) => {
  skipWhenDown(kind, problems);
  const why = kind === 'memory' ? 'a memory store lives in one process' : pidNamespaceProblem();
  if (why !== undefined) {
    it.skip(`skipped: ${why}`, () => {});
    return;
  }

  it('takes the next append at once after a writer in another PID namespace was SIGKILLed while appending (5 kills)', async () => {
    const spec = await freshSpec(kind);
    const open = await openStore(spec);
    opened.push(open);
    const id = `ns-killed-${process.pid}`;
    const acks = (line: string) => line.startsWith('ack ');
    for (let kill = 0; kill < 5; kill++) {
      // Its pid means nothing here, so no lock it held can be judged dead by its pid.
      const writer = await startInNewPidNamespace('store-worker.ts', ['append', JSON.stringify(spec), id, '100000']);
      await writer.count(acks, 1 + Math.floor(Math.random() * 20));
      await killInNamespace(writer);
      const { entries, version } = await open.store.read(id);
      for (const [n, entry] of entries.entries()) expect(entry === numberedEntry(n), `entry ${n}`).toBe(true);
      // One append, with no retry: the store neither waits for what the dead writer held nor refuses.
      const next = await open.store.append(id, numberedEntry(entries.length), version);
      expect((await open.store.read(id)).version).toBe(next);
    }
  }, 180_000); // 5 child processes, each starting Node; an append lock that never expires would fail each after 10 s
});
