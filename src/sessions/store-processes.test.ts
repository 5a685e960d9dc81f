import { afterAll, describe, expect, it } from 'vitest';
import { Child } from '../test-support/child-process.js';
import { numberedEntry } from '../test-support/open-store.js';
import {
  freshSpecs,
  type OpenStore,
  openStore,
  reportSkippedStores,
  serverProblems,
} from '../test-support/store-backends.js';

/** The stores that outlive a process: file, SQLite, and Redis and PostgreSQL when they answer. */
const SPECS = await freshSpecs({ withMemory: false });
const opened: OpenStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

const acks = (line: string) => line.startsWith('ack ');

const STORES = await Promise.all(SPECS.map(async (spec) => [spec.kind, spec, await openStore(spec)] as const));

describe.each(STORES)('%s store across processes', (_kind, spec, open) => {
  opened.push(open);
  const { store } = open;
  const specText = JSON.stringify(spec);

  it('gives the lease to exactly one of two processes that ask at once', async () => {
    const id = `lease-race-${process.pid}`;
    const children = await Promise.all(
      ['a', 'b'].map((h) => Child.start('store-worker.ts', ['lease', specText, id, h])),
    );
    for (const child of children) child.send('go');
    const answers = await Promise.all(children.map((c) => c.line((l) => l.startsWith('{'))));
    await Promise.all(children.map((c) => c.finished()));
    const leases = answers.map((a) => JSON.parse(a) as { acquired: boolean; holder: string });
    expect(leases.filter((l) => l.acquired)).toHaveLength(1);
    const winner = leases.find((l) => l.acquired)?.holder;
    expect(leases.every((l) => l.holder === winner)).toBe(true);
  }, 120_000);

  it('keeps every acknowledged entry, whole, through SIGKILLs at random points of appending', async () => {
    const id = `killed-${process.pid}`;
    let acknowledged = 0;
    for (let kill = 0; kill < 4; kill++) {
      const child = await Child.start('store-worker.ts', ['append', specText, id, '100000']);
      const wait = 1 + Math.floor(Math.random() * 25);
      await child.count(acks, wait);
      await child.kill();
      acknowledged = Math.max(acknowledged, ...child.lines.filter(acks).map((l) => Number(l.slice(4))));
      const { entries } = await store.read(id);
      expect(entries.length, `kill ${kill} after ${wait} acks`).toBeGreaterThanOrEqual(acknowledged);
      for (const [n, entry] of entries.entries()) expect(entry === numberedEntry(n), `entry ${n}`).toBe(true);
    }
    const last = await Child.start('store-worker.ts', ['append', specText, id, String(acknowledged + 30)]);
    await last.finished();
    const { entries } = await store.read(id);
    expect(entries).toHaveLength(acknowledged + 30);
    for (const [n, entry] of entries.entries()) expect(entry === numberedEntry(n), `entry ${n}`).toBe(true);
  }, 120_000); // child processes, each starting Node
});

reportSkippedStores('store across processes', await serverProblems());
