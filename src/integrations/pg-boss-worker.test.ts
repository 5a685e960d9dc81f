import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { rejection } from '../test-support/errors.js';
import { killCase, queueCases } from '../test-support/queue-cases.js';
import { PG_URL, serverProblems, skipWhenDown } from '../test-support/store-backends.js';
import { pgBossSessionQueue } from './pg-boss-worker.js';

const problems = await serverProblems();
const schema = `lousho_boss_t_${process.pid}_${randomBytes(3).toString('hex')}`;

afterAll(async () => {
  if (problems.postgres !== undefined) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe('sessions on pg-boss 10 (Postgres)', () => {
  skipWhenDown('postgres', problems);

  queueCases(async (options, timeoutMs) => {
    const queue = await pgBossSessionQueue({
      ...options,
      queueName: `q-${randomBytes(4).toString('hex')}`,
      connection: PG_URL,
      schema,
      retryDelay: 1,
      ...(timeoutMs === undefined ? {} : { expireInSeconds: timeoutMs / 1000, maintenanceIntervalSeconds: 1 }),
    });
    await queue.work({ pollingIntervalSeconds: 0.5 });
    return queue;
  }, 'postgres');

  killCase('pg-boss');

  it('refuses a takeoverCheckMs or a concurrency that is no count, naming it', async () => {
    const session = () => {
      throw new Error('not opened');
    };
    const bad = pgBossSessionQueue({ queueName: 'q-bad', connection: PG_URL, schema, session, takeoverCheckMs: -1 });
    expect((await rejection(bad)).message).toContain('takeoverCheckMs must be a number >= 0');
    const queue = await pgBossSessionQueue({
      queueName: `q-${randomBytes(4).toString('hex')}`,
      connection: PG_URL,
      schema,
      session,
    });
    try {
      expect((await rejection(queue.work({ concurrency: 2.5 }))).message).toContain(
        'concurrency must be a whole number >= 1',
      );
    } finally {
      await queue.close();
    }
  });
});
