/**
 * The queue's own ceiling, for the workers bench: trivial jobs (a handler that does nothing) through
 * one consumer in this process, `concurrency` at a time, on the server the fleet uses: BullMQ's
 * Worker on Redis, or this library's pg-boss fetch loop on Postgres (what its workers run on).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { fetchLoop } from '../integrations/pg-boss-loop.js';
import { PG_URL, REDIS_URL } from './store-backends.js';

/** Trivial jobs a second through one consumer, over `jobs` jobs. */
export async function queueCeiling(engine: 'bullmq' | 'pg-boss', jobs: number, concurrency: number): Promise<number> {
  const tag = `lousho_ceiling_${process.pid}_${randomBytes(3).toString('hex')}`;
  return engine === 'bullmq' ? bullmqCeiling(tag, jobs, concurrency) : pgBossCeiling(tag, jobs, concurrency);
}

async function bullmqCeiling(tag: string, jobs: number, concurrency: number): Promise<number> {
  const { Queue, Worker } = await import('bullmq');
  const connection = { url: REDIS_URL, maxRetriesPerRequest: null };
  const queue = new Queue(tag, { connection, prefix: tag });
  await queue.addBulk(
    Array.from({ length: jobs }, (_, i) => ({ name: 'x', data: { i }, opts: { removeOnComplete: true } })),
  );
  let done = 0;
  let finish = () => {};
  const all = new Promise<void>((resolve) => (finish = resolve));
  const started = performance.now();
  const worker = new Worker(tag, async () => {}, { connection, prefix: tag, concurrency });
  worker.on('completed', () => ++done === jobs && finish());
  await all;
  const seconds = (performance.now() - started) / 1000;
  await worker.close();
  await queue.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${tag}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  return jobs / seconds;
}

async function pgBossCeiling(tag: string, jobs: number, concurrency: number): Promise<number> {
  const Boss = (await import('pg-boss')).default;
  const boss = new Boss({ connectionString: PG_URL, schema: tag, max: 4 });
  boss.on('error', () => {});
  await boss.start();
  await boss.createQueue(tag, { name: tag });
  await boss.insert(Array.from({ length: jobs }, (_, i) => ({ name: tag, data: { i } })));
  let done = 0;
  let finish = () => {};
  const all = new Promise<void>((resolve) => (finish = resolve));
  const started = performance.now();
  const loop = fetchLoop({
    boss,
    name: tag,
    schema: tag,
    concurrency,
    pollingMs: 500,
    expireInSeconds: 60,
    run: async () => {
      if (++done === jobs) finish();
      return {};
    },
    onError: () => {},
  });
  await all;
  const seconds = (performance.now() - started) / 1000;
  await loop.stop();
  await boss.getDb().executeSql(`DROP SCHEMA ${tag} CASCADE`, []);
  await boss.stop({ graceful: false, close: true });
  return jobs / seconds;
}
