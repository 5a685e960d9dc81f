/**
 * The session stores the tests run on, in this process and in child processes: memory,
 * file, SQLite, and the real Redis (REDIS_URL) and PostgreSQL (LOUSHO_PG_URL) servers that
 * .ci/run starts, when they answer. A store whose server does not answer is reported as
 * skipped, with the reason printed (see skipWhenDown and reportSkippedStores).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { beforeEach, describe, it } from 'vitest';
import type { StoreKind, StoreSpec } from './open-store.js';

export { type OpenStore, openStore, type StoreKind, type StoreSpec } from './open-store.js';

/** The Redis the tests may use: only the one REDIS_URL names (never whatever answers on the default port). */
export const REDIS_URL = process.env.REDIS_URL ?? '';
/** The PostgreSQL the tests may use: only the one LOUSHO_PG_URL names. */
export const PG_URL = process.env.LOUSHO_PG_URL ?? '';

async function redisAnswers(): Promise<string | undefined> {
  if (REDIS_URL === '') return 'REDIS_URL is not set (the tests use only a Redis they are given; .ci/run sets it)';
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  // Without a listener ioredis prints "Unhandled error event" with a stack; the probe's answer says it instead.
  let failure: Error | undefined;
  client.on('error', (error: Error) => {
    failure ??= error;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    const why = (failure ?? (error as Error)).message;
    return `no Redis answers at ${REDIS_URL} (${why}); .ci/run starts one and sets REDIS_URL`;
  } finally {
    client.disconnect();
  }
}

async function postgresAnswers(): Promise<string | undefined> {
  if (PG_URL === '')
    return 'LOUSHO_PG_URL is not set (the tests use only a PostgreSQL they are given; .ci/run sets it)';
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {}); // a dropped connection is the probe's answer, not an unhandled error
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `no PostgreSQL answers at ${PG_URL} (${(error as Error).message}); .ci/run starts one and sets LOUSHO_PG_URL`;
  } finally {
    await client.end().catch(() => {});
  }
}

let checked: Promise<Record<'redis' | 'postgres', string | undefined>> | undefined;

/** Why the Redis and PostgreSQL stores are left out (undefined: they answer); printed once per test file. */
export function serverProblems(): Promise<Record<'redis' | 'postgres', string | undefined>> {
  checked ??= Promise.all([redisAnswers(), postgresAnswers()]).then(([redis, postgres]) => {
    if (redis !== undefined) console.warn(`Skipping the KVSessionStore (Redis) tests: ${redis}.`);
    if (postgres !== undefined) console.warn(`Skipping the PostgresSessionStore tests: ${postgres}.`);
    return { redis, postgres };
  });
  return checked;
}

type ServerKind = 'redis' | 'postgres';
const SERVER_KINDS: ServerKind[] = ['redis', 'postgres'];
const isServerKind = (kind: StoreKind): kind is ServerKind => kind === 'redis' || kind === 'postgres';

/**
 * In a store's describe block: when the store's server does not answer, every test of the
 * block is reported as skipped, with the reason as its note.
 */
export function skipWhenDown(kind: StoreKind, problems: Record<ServerKind, string | undefined>): void {
  const reason = isServerKind(kind) ? problems[kind] : undefined;
  if (reason !== undefined) beforeEach((context) => context.skip(reason));
}

/**
 * For suites that open their stores before their tests: one skipped test per store whose
 * server does not answer, named with the reason, so the test count shows it.
 */
export function reportSkippedStores(suite: string, problems: Record<ServerKind, string | undefined>): void {
  for (const kind of SERVER_KINDS) {
    const reason = problems[kind];
    if (reason !== undefined) describe(`${kind} ${suite}`, () => it.skip(`skipped: ${reason}`, () => {}));
  }
}

/** A PostgreSQL URL whose tables live in a new schema of their own, so tests do not see each other's rows. */
export async function isolatedPostgresUrl(): Promise<string> {
  const schema = `lousho_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** A fresh, empty store of each kind this machine can run (memory only when `withMemory`). */
export async function freshSpecs(options: { withMemory: boolean }): Promise<StoreSpec[]> {
  const problems = await serverProblems();
  const specs: StoreSpec[] = [];
  if (options.withMemory) specs.push({ kind: 'memory' });
  specs.push(await freshSpec('file'), await freshSpec('sqlite'));
  if (problems.redis === undefined) specs.push(await freshSpec('redis'));
  if (problems.postgres === undefined) specs.push(await freshSpec('postgres'));
  return specs;
}

/** A fresh, empty store of one kind. */
export async function freshSpec(kind: StoreKind): Promise<StoreSpec> {
  switch (kind) {
    case 'memory':
      return { kind };
    case 'file':
      return { kind, dir: await mkdtemp(join(tmpdir(), 'lousho-file-store-')) };
    case 'sqlite':
      return { kind, path: join(await mkdtemp(join(tmpdir(), 'lousho-sqlite-store-')), 'sessions.db') };
    case 'redis':
      return { kind, url: REDIS_URL, prefix: `lousho-test:${process.pid}:${randomBytes(4).toString('hex')}:` };
    case 'postgres':
      return { kind, url: await isolatedPostgresUrl() };
  }
}
