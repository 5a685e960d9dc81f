import type { ConnectionOptions, Job, Queue, Worker } from 'bullmq';
import type { DriveSessionResult } from '../sessions/drive-session.js';
import {
  optionalPackage,
  runSessionJob,
  type SessionJobData,
  type SessionQueueMethods,
  type SessionQueueOptions,
  sessionQueueMethods,
} from './session-jobs.js';

/** What bullmqSessionQueue() takes. */
export interface BullMQSessionQueueOptions extends SessionQueueOptions {
  /** The queue's name (one per kind of agent). */
  queueName: string;
  /** The Redis connection, as BullMQ takes it (e.g. `{ url: 'redis://127.0.0.1:6379' }`). */
  connection: ConnectionOptions;
  /** BullMQ's key prefix ('bull' when absent). */
  prefix?: string;
  /** How long a worker's lock on a job lasts unless renewed, in ms (30,000): a killed worker's job comes back after it. */
  lockDurationMs?: number;
  /** How often workers look for jobs whose worker died, in ms (lockDurationMs / 2). */
  stalledIntervalMs?: number;
  /** Deliveries of a job before it fails (100); a busy session is retried, every backoffMs. */
  attempts?: number;
  /** The wait before a job is tried again, in ms (1,000). */
  backoffMs?: number;
}

/** Sessions served from a BullMQ queue: enqueue turns and decisions; any worker drives them. */
export interface BullMQSessionQueue extends SessionQueueMethods {
  /** The BullMQ queue. */
  readonly queue: Queue<SessionJobData>;
  /** Starts a worker in this process (`concurrency` jobs at a time, 1 when absent). */
  work(options?: { concurrency?: number }): Worker<SessionJobData, DriveSessionResult>;
  /** Closes the workers this object started, then the queue. */
  close(): Promise<void>;
}

/**
 * Serves sessions from a BullMQ queue on Redis. A job names a session (and a turn's input with
 * an idempotency key fixed at enqueue); a worker drives the session to its next resting state
 * (driveSession()), so however often BullMQ delivers a job, its turn starts once. A killed
 * worker's job comes back through BullMQ's stalled-job check and resumes the turn from its last
 * checkpoint; a busy session is retried after backoffMs.
 *
 * @example
 * const sessions = await bullmqSessionQueue({
 *   queueName: 'agent', connection: { url: 'redis://127.0.0.1:6379' },
 *   session: (id) => agent.session({ id, store }),
 * });
 * sessions.work({ concurrency: 4 });
 * await sessions.enqueueTurn('ticket-42', 'Deploy the fix.');
 */
export async function bullmqSessionQueue(options: BullMQSessionQueueOptions): Promise<BullMQSessionQueue> {
  const bullmq = await optionalPackage(() => import('bullmq'), 'bullmqSessionQueue()', 'bullmq');
  const base = { connection: options.connection, ...(options.prefix === undefined ? {} : { prefix: options.prefix }) };
  const lockDuration = options.lockDurationMs ?? 30_000;
  const queue = new bullmq.Queue<SessionJobData>(options.queueName, {
    ...base,
    defaultJobOptions: {
      attempts: options.attempts ?? 100,
      backoff: { type: 'fixed', delay: options.backoffMs ?? 1_000 },
      removeOnComplete: true,
      removeOnFail: 1_000,
    },
  });
  queue.on('error', (error) => console.error(`@lousho/build-ai-agent: queue '${options.queueName}':`, error));
  const workers: Worker<SessionJobData, DriveSessionResult>[] = [];
  const add = (data: SessionJobData) => queue.add(data.input === undefined ? 'drive' : 'turn', data);
  return {
    queue,
    ...sessionQueueMethods(options, add),
    work(work = {}) {
      const worker = new bullmq.Worker<SessionJobData, DriveSessionResult>(
        options.queueName,
        (job: Job<SessionJobData>) => runSessionJob(options, job.data),
        {
          ...base,
          concurrency: work.concurrency ?? 1,
          lockDuration,
          stalledInterval: options.stalledIntervalMs ?? Math.max(1_000, Math.floor(lockDuration / 2)),
          maxStalledCount: 1_000, // a job whose worker was killed always comes back
        },
      );
      worker.on('error', (error) => console.error(`@lousho/build-ai-agent: worker of '${options.queueName}':`, error));
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w.close()));
      await queue.close();
    },
  };
}

export type { ListingStore, SessionJobData, SessionQueueMethods, SessionQueueOptions } from './session-jobs.js';
