/**
 * The paused-writer cases of the store conformance suite (store.test.ts), for every store two
 * processes can share: a writer (src/test-support/pause-worker.ts) is stopped with SIGSTOP
 * past its lease, another process takes the session over as soon as the store's clock lets
 * it (it asks again until the lease is free: nothing here sleeps against the lease), and the
 * stopped writer is continued with SIGCONT (while the new owner holds the lease, before or after
 * its first save, or after it let go). Whatever it was doing, it adds no entry after the new
 * owner's, and starts no further tool call. LOUSHO_PAUSE_TRIALS repeats each case.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { mockModel } from '../testing/mock-model.js';
import { Child } from './child-process.js';
import { openStore, type StoreSpec } from './open-store.js';

/** How many times each case runs (LOUSHO_PAUSE_TRIALS raises it). */
export const PAUSE_TRIALS = Number(process.env.LOUSHO_PAUSE_TRIALS ?? 1);
const LEASE_MS = '1000';

const outcomeOf = async (child: Child) =>
  (JSON.parse(await child.line((l) => l.startsWith('{"outcome"'))) as { outcome: string }).outcome;

async function ledgerOf(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
}

/** One trial: the stopped writer A, the new owner B, and what the test does while A is stopped. */
async function trial(
  spec: StoreSpec,
  pauseAt: 'tool' | 'append',
  owner: 'hold' | 'go' | 'quiet',
  whileStopped: (a: Child, b: Child, read: () => Promise<string[]>) => Promise<void>,
) {
  const { store, close } = await openStore(spec);
  const id = `paused-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const ledger = join(await mkdtemp(join(tmpdir(), 'lousho-pause-')), 'ledger');
  await writeFile(ledger, '');
  const specText = JSON.stringify(spec);
  const read = async () => (await store.read(id)).entries;
  const a = await Child.start('pause-worker.ts', ['first', specText, id, ledger, LEASE_MS, pauseAt]);
  let b: Child | undefined;
  try {
    await a.line((l) => l === (pauseAt === 'tool' ? 'holding h1' : 'appending'));
    a.process.kill('SIGSTOP');
    b = await Child.start('pause-worker.ts', ['next', specText, id, ledger, LEASE_MS, owner]);
    await whileStopped(a, b, read);
    await b.finished();
    expect(await outcomeOf(b)).toBe('done');
    const session = createAgent({ provider: mockModel([]) }).session({ id, store });
    await session.load();
    const ids = (await session.checkpoints()).map((c) => c.id);
    expect(new Set(ids).size, 'no checkpoint listed twice').toBe(ids.length);
    expect(session.status).toBe('idle');
    expect(session.messages.at(-1)?.content).toBe('done');
    return { ledger: await ledgerOf(ledger), entries: await read() };
  } finally {
    a.process.kill('SIGCONT');
    await a.kill();
    await b?.kill(); // a case that failed may leave it waiting for a line
    await close();
  }
}

/** A trial whose writer is continued once the new owner finished its turn and let go; resolves to the ledger. */
async function continuedAfterOwner(spec: StoreSpec, pauseAt: 'tool' | 'append'): Promise<string[]> {
  let final: string[] = [];
  const { ledger, entries } = await trial(spec, pauseAt, 'go', async (a, b, read) => {
    await b.finished();
    final = await read();
    if (pauseAt === 'append') a.send('continue');
    a.process.kill('SIGCONT');
    expect(await outcomeOf(a)).toBe('LOUSHO_SESSION_CONFLICT');
  });
  expect(entries, "nothing after the new owner's last entry").toEqual(final);
  return ledger;
}

/** Registers the cases for the store `spec()` opens (a fresh one per trial). */
export function pauseCases(spec: () => Promise<StoreSpec>): void {
  it(
    `a writer stopped inside a tool, continued while the new owner holds the lease: its tool gets the abort signal, it adds no entry and starts no call (${PAUSE_TRIALS} trials)`,
    async () => {
      for (let n = 0; n < PAUSE_TRIALS; n++) {
        const { ledger } = await trial(await spec(), 'tool', 'hold', async (a, b, read) => {
          await b.line((l) => l === 'holding w1');
          const owned = await read();
          a.process.kill('SIGCONT');
          expect(await outcomeOf(a)).toBe('LOUSHO_SESSION_CONFLICT');
          expect(await read(), 'the continued writer added nothing').toEqual(owned);
          b.send('finish');
        });
        expect(ledger.filter((l) => l.includes(' first '))).toEqual(['START first h1', 'ABORTED first h1']);
      }
    },
    120_000 * PAUSE_TRIALS,
  );

  it(
    `a writer stopped inside a tool, continued after the new owner finished and let go: its tool gets the abort signal, it adds no entry and starts no call (${PAUSE_TRIALS} trials)`,
    async () => {
      for (let n = 0; n < PAUSE_TRIALS; n++) {
        const ledger = await continuedAfterOwner(await spec(), 'tool');
        expect(ledger.filter((l) => l.includes(' first '))).toEqual(['START first h1', 'ABORTED first h1']);
      }
    },
    120_000 * PAUSE_TRIALS,
  );

  it(
    `a writer stopped between its lease check and its append, continued after the new owner took the lease but before it saved anything: the append is refused and no further tool call starts (${PAUSE_TRIALS} trials)`,
    async () => {
      for (let n = 0; n < PAUSE_TRIALS; n++) {
        const { ledger } = await trial(await spec(), 'append', 'quiet', async (a, b, read) => {
          await b.line((l) => l === 'holding the lease');
          const owned = await read();
          a.send('continue');
          a.process.kill('SIGCONT');
          expect(await outcomeOf(a)).toBe('LOUSHO_SESSION_CONFLICT');
          expect(await read(), 'the continued writer added nothing').toEqual(owned);
          b.send('save');
        });
        // The continued writer started nothing after the takeover: only the call it was in when stopped.
        expect(ledger.filter((l) => l.includes(' first '))).toEqual(['START first h1', 'DONE first h1']);
        expect(ledger.filter((l) => l.startsWith('START next '))).toEqual(['START next w1']);
      }
    },
    120_000 * PAUSE_TRIALS,
  );

  it(
    `a writer stopped between its lease check and its append, continued after the new owner finished: the append is refused, nothing lands after the owner's entries (${PAUSE_TRIALS} trials)`,
    async () => {
      for (let n = 0; n < PAUSE_TRIALS; n++) {
        const ledger = await continuedAfterOwner(await spec(), 'append');
        expect(ledger.filter((l) => l.includes(' first '))).toEqual(['START first h1', 'DONE first h1']);
        expect(ledger.filter((l) => l.startsWith('START next '))).toEqual(['START next w1']);
      }
    },
    120_000 * PAUSE_TRIALS,
  );
}
