import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { checkNumber } from '../errors/check-options.js';
import { activeJobsOf, type FetchLoop, fetchLoop } from './pg-boss-loop.js';
import {
  optionalPackage,
  runSessionJob,
  type SessionJobData,
  type SessionQueueMethods,
  type SessionQueueOptions,
  sessionQueueMethods,
} from './session-jobs.js';
import { type ActiveJob, watchStaleJobs } from './stale-jobs.js';

/** What pgBossSessionQueue() takes. */
export interface PgBossSessionQueueOptions extends SessionQueueOptions {
  /** The queue's name (one per kind of agent). */
  queueName: string;
  /** The Postgres connection string, or a started PgBoss (this object then never stops it). */
  connection: string | PgBoss;
  /** pg-boss's schema ('pgboss' when absent); give it with a started PgBoss of another schema too. */
  schema?: string;
  /**
   * How long a job may go without its worker renewing it before pg-boss fails it and retries it, in
   * s (60). A worker renews it while its job runs, however long the turn; a killed worker's job is
   * handed on by the other workers as soon as its session's lease shows the worker gone
   * (takeoverCheckMs), and comes back after this (and the next maintenance) at the latest.
   */
  expireInSeconds?: number;
  /** How often pg-boss looks for expired jobs, in s (maintenance; 10), when `connection` is a string. */
  maintenanceIntervalSeconds?: number;
  /**
   * The most connections pg-boss opens, when `connection` is a string (pg-boss's own default: 10).
   * Every worker process has its own, besides the session store's: keep workers × (this + the
   * store's) under the server's max_connections.
   */
  maxConnections?: number;
  /** Retries of a job before it fails (100); a busy session is retried, every retryDelay seconds. */
  retryLimit?: number;
  /** The wait before a job is tried again, in s (1). */
  retryDelay?: number;
}

/** Sessions served from a pg-boss queue: enqueue turns and decisions; any worker drives them. */
export interface PgBossSessionQueue extends SessionQueueMethods {
  /** The pg-boss instance. */
  readonly boss: PgBoss;
  /**
   * Starts a worker in this process that runs `concurrency` jobs at a time (1 when absent): it
   * fetches as many jobs as it has free slots and fetches again as soon as one ends, and looks again
   * every pollingIntervalSeconds (0.5) while the queue is empty; resolves to its id.
   */
  work(options?: { concurrency?: number; pollingIntervalSeconds?: number }): Promise<string>;
  /** Stops the workers of this object (and pg-boss, when this object started it). */
  close(): Promise<void>;
}

/**
 * Serves sessions from a pg-boss (version 10) queue on Postgres. A job names a session (and a
 * turn's input with an idempotency key fixed at enqueue); a worker drives the session to its
 * next resting state (driveSession()), so however often pg-boss delivers a job, its turn starts
 * once. A killed worker's job is handed on by the other workers once its session's lease shows it
 * gone (at once for a worker provably dead, on this host and PID namespace; when the lease runs out
 * for one on another host), or expires after expireInSeconds, and another worker resumes the turn
 * from its last checkpoint; a busy session is retried after retryDelay.
 *
 * @example
 * const sessions = await pgBossSessionQueue({
 *   queueName: 'agent', connection: 'postgres://localhost/app',
 *   session: (id) => agent.session({ id, store }),
 * });
 * await sessions.work({ concurrency: 4 });
 * await sessions.enqueueTurn('ticket-42', 'Deploy the fix.');
 */
export async function pgBossSessionQueue(options: PgBossSessionQueueOptions): Promise<PgBossSessionQueue> {
  checkNumber(options.takeoverCheckMs, 'takeoverCheckMs', 'pgBossSessionQueue()', { min: 0 });
  const own = typeof options.connection === 'string';
  let boss: PgBoss;
  if (typeof options.connection === 'string') {
    const Boss = (await optionalPackage(() => import('pg-boss'), 'pgBossSessionQueue()', 'pg-boss@10')).default;
    boss = new Boss({
      connectionString: options.connection,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 10,
      ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }),
    });
    boss.on('error', (error) => console.error(`@lousho/build-ai-agent: pg-boss of '${options.queueName}':`, error));
    await boss.start();
  } else boss = options.connection;
  const name = options.queueName;
  const expireInSeconds = options.expireInSeconds ?? 60;
  const schema = options.schema ?? 'pgboss';
  await boss.createQueue(name, {
    name,
    retryLimit: options.retryLimit ?? 100,
    retryDelay: options.retryDelay ?? 1,
    expireInSeconds,
  });
  const loops = new Map<string, FetchLoop>();
  const report = (error: unknown) => console.error(`@lousho/build-ai-agent: pg-boss queue '${name}':`, error);
  const add = async (data: SessionJobData, key?: string) => {
    const id = await boss.send(name, data, key === undefined ? {} : { id: uuidOf(key) });
    for (const loop of loops.values()) loop.wake(); // a worker here with a free slot takes it now
    return id;
  };
  const active = activeJobsOf<SessionJobData>(boss, schema, name);
  let watcher: { stop(): void } | undefined;
  return {
    boss,
    ...sessionQueueMethods(options, add),
    async work(work = {}) {
      checkNumber(work.concurrency, 'concurrency', 'work()', { min: 1, integer: true });
      checkNumber(work.pollingIntervalSeconds, 'pollingIntervalSeconds', 'work()', { min: 0.05 });
      const ours = () => new Set([...loops.values()].flatMap((loop) => [...loop.running]));
      const handOn = async (job: ActiveJob) => {
        await active.handOn(job);
        for (const loop of loops.values()) loop.wake(); // a free slot here takes it now
      };
      watcher ??= watchStaleJobs(options, { list: active.list, handOn, ours }, report);
      const id = randomUUID();
      const loop = fetchLoop<SessionJobData>({
        boss,
        name,
        schema,
        concurrency: work.concurrency ?? 1,
        pollingMs: (work.pollingIntervalSeconds ?? 0.5) * 1000,
        expireInSeconds,
        run: async (job) => {
          const { action, status } = await runSessionJob(options, job.data);
          return { action, status };
        },
        onError: report,
      });
      loops.set(id, loop);
      return id;
    },
    async close() {
      watcher?.stop();
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
      loops.clear();
      if (own) await boss.stop({ graceful: true, close: true });
    },
  };
}

/** A job key (32 hex digits) as the uuid pg-boss keeps as a job's id. */
function uuidOf(key: string): string {
  return `${key.slice(0, 8)}-${key.slice(8, 12)}-4${key.slice(13, 16)}-8${key.slice(17, 20)}-${key.slice(20, 32)}`;
}

export type { ListingStore, SessionJobData, SessionQueueMethods, SessionQueueOptions } from './session-jobs.js';
