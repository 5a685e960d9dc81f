import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { Child } from '../test-support/child-process.js';
import { rejection } from '../test-support/errors.js';
import { freezingProxy } from '../test-support/freezing-proxy.js';
import { openStore } from '../test-support/open-store.js';
import { type OwnServer, startPostgres, startRedis } from '../test-support/own-servers.js';
import { isolatedPostgresUrl, PG_URL, serverProblems, skipWhenDown } from '../test-support/store-backends.js';
import { mockModel } from '../testing/mock-model.js';
import { PostgresSessionStore } from './postgres-store.js';

/**
 * Workers survive their store: a server restarted under a worker mid-turn, and an idle
 * Postgres connection dropped by the server, leave the worker process up, its errors typed, and
 * its turns finished with nothing it was told was saved lost. The workers are child processes
 * (src/test-support/restart-worker.ts), so an unhandled 'error' event would end them. The
 * restarts run on servers of the test's own; LOUSHO_RESTART_TRIALS repeats each case.
 */
const TRIALS = Number(process.env.LOUSHO_RESTART_TRIALS ?? 2);
const problems = await serverProblems();

const outcomes = (child: Child) =>
  child.lines.filter((l) => l.startsWith('{"outcome"')).map((l) => (JSON.parse(l) as { outcome: string }).outcome);

async function newLedger(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-restart-')), 'ledger');
  await writeFile(path, '');
  return path;
}

/** Answers every "holding" line with "go" until the worker prints "alive". */
async function driveToAlive(child: Child, answered: number): Promise<void> {
  let holding = answered;
  while (!child.lines.includes('alive')) {
    await child.line(
      (l) =>
        l === 'alive' ||
        (l.startsWith('holding ') && child.lines.filter((x) => x.startsWith('holding ')).length > holding),
    );
    const now = child.lines.filter((l) => l.startsWith('holding ')).length;
    for (; holding < now; holding++) child.send('go');
  }
}

async function restartMidTurn(kind: 'redis' | 'postgres', server: OwnServer): Promise<void> {
  const id = `restart-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const ledger = await newLedger();
  const child = await Child.start('restart-worker.ts', ['turn', kind, server.url, id, ledger]);
  await child.line((l) => l.startsWith('holding h1'));
  await server.restart();
  child.send('go');
  await driveToAlive(child, 1);
  child.send('exit');
  await child.finished(); // exit code 0: the process was never ended by an error event
  for (const outcome of outcomes(child))
    expect(outcome, 'every failure the worker saw is typed').toMatch(/^(done|LOUSHO_)/);
  expect(outcomes(child).at(-1)).toBe('done');
  const acknowledged = Math.max(...child.lines.filter((l) => l.startsWith('saved ')).map((l) => Number(l.slice(6))));
  const spec =
    kind === 'redis'
      ? ({ kind, url: server.url, prefix: 'lousho:session:' } as const)
      : ({ kind, url: server.url } as const);
  const { store, close } = await openStore(spec);
  try {
    const { version, entries } = await store.read(id);
    expect(version, 'the version every acknowledged save reached is there').toBeGreaterThanOrEqual(acknowledged);
    expect(entries.length).toBeGreaterThanOrEqual(acknowledged);
    const session = createAgent({ provider: mockModel([]) }).session({ id, store });
    await session.load();
    expect(session.status).toBe('idle');
    expect(session.messages.at(-1)?.content).toBe('done');
  } finally {
    await close();
  }
  const starts = (await readFile(ledger, 'utf8')).split('\n').filter((l) => l.startsWith('START '));
  expect(new Set(starts).size, 'no call ran twice').toBe(starts.length);
}

describe.each([
  ['Redis', 'redis', startRedis],
  ['PostgreSQL', 'postgres', startPostgres],
] as const)('a worker whose %s server restarts mid-turn', (_name, kind, start) => {
  it(
    `stays up, sees typed errors, and finishes the turn with every acknowledged save kept (${TRIALS} trials)`,
    async (context) => {
      const server = await start();
      if (typeof server === 'string') {
        console.warn(`Skipping the ${kind} restart test: ${server}.`);
        context.skip(server);
        return;
      }
      try {
        for (let n = 0; n < TRIALS; n++) await restartMidTurn(kind, server);
      } finally {
        await server.stop();
      }
    },
    240_000 * TRIALS,
  );
});

describe('a worker whose idle Postgres connection the server drops', () => {
  skipWhenDown('postgres', problems);

  it(
    `stays up and goes on working (pg_terminate_backend of its pool's connections, ${TRIALS} trials)`,
    async () => {
      for (let n = 0; n < TRIALS; n++) {
        const name = `lousho-idle-${process.pid}-${n}`;
        const url = new URL(await isolatedPostgresUrl());
        url.searchParams.set('application_name', name);
        const child = await Child.start('restart-worker.ts', [
          'idle',
          'postgres',
          url.toString(),
          `idle-${n}`,
          await newLedger(),
        ]);
        await child.line((l) => l === 'idle');
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        try {
          const { rows } = await admin.query(
            'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1',
            [name],
          );
          expect(rows.length, 'idle connections of the worker were dropped').toBeGreaterThan(0);
        } finally {
          await admin.end();
        }
        child.send('next');
        await child.line((l) => l === 'alive');
        child.send('exit');
        await child.finished();
        const seen = outcomes(child);
        for (const outcome of seen) expect(outcome, seen.join()).toMatch(/^(done|LOUSHO_)/);
        expect(seen.filter((o) => o === 'done').length, seen.join()).toBe(5);
      }
    },
    120_000 * TRIALS,
  );
});

describe('a PostgresSessionStore whose connection stops answering (a network partition)', () => {
  skipWhenDown('postgres', problems);

  it('fails the operation with LOUSHO_STORE_FAILED after queryTimeoutMs, and works again once the network does', async () => {
    const server = new URL(PG_URL);
    const proxy = await freezingProxy(server.hostname, Number(server.port || 5432));
    const url = new URL(await isolatedPostgresUrl());
    url.host = `127.0.0.1:${proxy.port}`;
    const store = new PostgresSessionStore({ connectionString: url.toString(), queryTimeoutMs: 1_000 });
    try {
      await store.append('s', 'a', 0);
      proxy.freeze();
      const error = await rejection(store.read('s'));
      expect(error.code).toBe('LOUSHO_STORE_FAILED');
      expect(error.message).toContain("session 's'");
      proxy.thaw();
      let read: string[] | undefined;
      for (let attempt = 0; read === undefined && attempt < 20; attempt++) {
        read = await store.read('s').then(
          (r) => r.entries,
          () => undefined,
        );
      }
      expect(read).toEqual(['a']);
    } finally {
      await store.close().catch(() => {});
      await proxy.close();
    }
  }, 60_000);
});
