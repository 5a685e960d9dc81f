import type { ConnectionOptions, Job, Queue, Worker } from 'bullmq';
import { checkNumber } from '../errors/check-options.js';
import type { DriveSessionResult } from '../sessions/drive-session.js';
import {
  optionalPackage,
  runSessionJob,
  type SessionJobData,
  type SessionQueueMethods,
  type SessionQueueOptions,
  sessionQueueMethods,
} from './session-jobs.js';
import { type ActiveJob, watchStaleJobs } from './stale-jobs.js';

/** What bullmqSessionQueue() takes. */
export interface BullMQSessionQueueOptions extends SessionQueueOptions {
  /** The queue's name (one per kind of agent). */
  queueName: string;
  /** The Redis connection, as BullMQ takes it (e.g. `{ url: 'redis://127.0.0.1:6379' }`). */
  connection: ConnectionOptions;
  /** BullMQ's key prefix ('bull' when absent). */
  prefix?: string;
  /**
   * How long a worker's lock on a job lasts unless renewed, in ms (30,000). A worker renews it while
   * its job runs, however long the turn; a killed worker's job is handed on by the other workers as
   * soon as its session's lease shows the worker gone (takeoverCheckMs), and comes back after this
   * at the latest.
   */
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
 * worker's job is handed on by the other workers once its session's lease shows it gone (at once
 * for a worker provably dead, on this host and PID namespace; when the lease runs out for one on
 * another host), or by BullMQ's stalled-job check after lockDurationMs, and another worker
 * resumes the turn from its last checkpoint; a busy session is retried after backoffMs.
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
  checkNumber(options.takeoverCheckMs, 'takeoverCheckMs', 'bullmqSessionQueue()', { min: 0 });
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
  const add = (data: SessionJobData, key?: string) =>
    queue.add(data.input === undefined ? 'drive' : 'turn', data, key === undefined ? {} : { jobId: `k${key}` });
  const running = new Set<string>();
  const report = (error: unknown) => console.error(`@lousho/build-ai-agent: queue '${options.queueName}':`, error);
  let watcher: { stop(): void } | undefined;
  const run = async (job: Job<SessionJobData>) => {
    running.add(job.id as string);
    try {
      return await runSessionJob(options, job.data);
    } finally {
      running.delete(job.id as string);
    }
  };
  return {
    queue,
    ...sessionQueueMethods(options, add),
    work(work = {}) {
      checkNumber(work.concurrency, 'concurrency', 'work()', { min: 1, integer: true });
      watcher ??= watchStaleJobs(options, activeJobs(queue, running), report);
      const worker = new bullmq.Worker<SessionJobData, DriveSessionResult>(options.queueName, run, {
        ...base,
        concurrency: work.concurrency ?? 1,
        lockDuration,
        stalledInterval: options.stalledIntervalMs ?? Math.max(1_000, Math.floor(lockDuration / 2)),
        maxStalledCount: 1_000, // a job whose worker was killed always comes back
      });
      worker.on('error', (error) => console.error(`@lousho/build-ai-agent: worker of '${options.queueName}':`, error));
      workers.push(worker);
      return worker;
    },
    async close() {
      watcher?.stop();
      await Promise.all(workers.splice(0).map((w) => w.close()));
      await queue.close();
    },
  };
}

/**
 * The queue's active jobs, and how to hand one on: back to the wait list with the lock its dead
 * worker held (so a job another worker took since, under its own lock, is left alone).
 */
function activeJobs(queue: Queue<SessionJobData>, running: ReadonlySet<string>) {
  const jobs = new Map<string, Job<SessionJobData>>();
  return {
    ours: () => running,
    async list(): Promise<ActiveJob[]> {
      jobs.clear();
      const active = (await queue.getActive()) as Job<SessionJobData>[];
      return active.flatMap((job) => {
        if (job?.id === undefined) return [];
        jobs.set(job.id, job);
        return [{ id: job.id, delivery: `${job.id}:${job.processedOn ?? 0}`, data: job.data }];
      });
    },
    async handOn(found: ActiveJob): Promise<void> {
      const job = jobs.get(found.id);
      const client = await queue.getBackend().client;
      const token = await client.get(`${queue.toKey(found.id)}:lock`);
      if (job === undefined || token === null) return; // its lock ran out: BullMQ's stalled check takes it
      await job.moveToWait(token).catch(() => {}); // another worker holds it now, or it finished
    },
  };
}

export type { ListingStore, SessionJobData, SessionQueueMethods, SessionQueueOptions } from './session-jobs.js';
