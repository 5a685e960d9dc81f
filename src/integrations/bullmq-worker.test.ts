import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { rejection, thrown } from '../test-support/errors.js';
import { killCase, queueCases } from '../test-support/queue-cases.js';
import { REDIS_URL, serverProblems, skipWhenDown } from '../test-support/store-backends.js';
import { bullmqSessionQueue } from './bullmq-worker.js';

const problems = await serverProblems();
const prefix = `lousho-bullmq-test-${process.pid}-${randomBytes(3).toString('hex')}`;
const connection = { url: REDIS_URL, maxRetriesPerRequest: null };

afterAll(async () => {
  if (problems.redis !== undefined) return;
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('sessions on BullMQ (Redis)', () => {
  skipWhenDown('redis', problems);

  queueCases(async (options, timeoutMs) => {
    const queue = await bullmqSessionQueue({
      ...options,
      queueName: `q-${randomBytes(4).toString('hex')}`,
      connection,
      prefix,
      backoffMs: 100,
      ...(timeoutMs === undefined ? {} : { lockDurationMs: timeoutMs, stalledIntervalMs: timeoutMs / 2 }),
    });
    queue.work();
    return queue;
  }, 'redis');

  killCase('bullmq');

  it('refuses a takeoverCheckMs or a concurrency that is no count, naming it', async () => {
    const session = () => {
      throw new Error('not opened');
    };
    const bad = bullmqSessionQueue({ queueName: 'q-bad', connection, prefix, session, takeoverCheckMs: -1 });
    expect((await rejection(bad)).message).toContain('takeoverCheckMs must be a number >= 0');
    const queue = await bullmqSessionQueue({
      queueName: `q-${randomBytes(4).toString('hex')}`,
      connection,
      prefix,
      session,
    });
    try {
      expect(thrown(() => queue.work({ concurrency: 0 })).message).toContain('concurrency must be a whole number >= 1');
    } finally {
      await queue.close();
    }
  });
});
