import type PgBoss from 'pg-boss';
import {
  optionalPackage,
  runSessionJob,
  type SessionJobData,
  type SessionQueueMethods,
  type SessionQueueOptions,
  sessionQueueMethods,
} from './session-jobs.js';

/** What pgBossSessionQueue() takes. */
export interface PgBossSessionQueueOptions extends SessionQueueOptions {
  /** The queue's name (one per kind of agent). */
  queueName: string;
  /** The Postgres connection string, or a started PgBoss (this object then never stops it). */
  connection: string | PgBoss;
  /** pg-boss's schema ('pgboss' when absent), when `connection` is a string. */
  schema?: string;
  /** How long a job may stay active before pg-boss fails it and retries it, in s (60): a killed worker's job comes back after it. */
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
  /** Starts a worker in this process, polling every pollingIntervalSeconds (0.5); resolves to its id. */
  work(options?: { pollingIntervalSeconds?: number }): Promise<string>;
  /** Stops the workers of this object (and pg-boss, when this object started it). */
  close(): Promise<void>;
}

/**
 * Serves sessions from a pg-boss (version 10) queue on Postgres. A job names a session (and a
 * turn's input with an idempotency key fixed at enqueue); a worker drives the session to its
 * next resting state (driveSession()), so however often pg-boss delivers a job, its turn starts
 * once. A killed worker's job expires after expireInSeconds, pg-boss retries it, and another
 * worker resumes the turn from its last checkpoint; a busy session is retried after retryDelay.
 *
 * @example
 * const sessions = await pgBossSessionQueue({
 *   queueName: 'agent', connection: 'postgres://localhost/app',
 *   session: (id) => agent.session({ id, store }),
 * });
 * await sessions.work();
 * await sessions.enqueueTurn('ticket-42', 'Deploy the fix.');
 */
export async function pgBossSessionQueue(options: PgBossSessionQueueOptions): Promise<PgBossSessionQueue> {
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
  await boss.createQueue(name, {
    name,
    retryLimit: options.retryLimit ?? 100,
    retryDelay: options.retryDelay ?? 1,
    expireInSeconds: options.expireInSeconds ?? 60,
  });
  const workers: string[] = [];
  const add = (data: SessionJobData) => boss.send(name, data);
  return {
    boss,
    ...sessionQueueMethods(options, add),
    async work(work = {}) {
      const id = await boss.work<SessionJobData>(
        name,
        { batchSize: 1, pollingIntervalSeconds: work.pollingIntervalSeconds ?? 0.5 },
        async ([job]) => (job === undefined ? undefined : runSessionJob(options, job.data)),
      );
      workers.push(id);
      return id;
    },
    async close() {
      await Promise.all(workers.splice(0).map((id) => boss.offWork({ id })));
      if (own) await boss.stop({ graceful: true, close: true });
    },
  };
}

export type { ListingStore, SessionJobData, SessionQueueMethods, SessionQueueOptions } from './session-jobs.js';
