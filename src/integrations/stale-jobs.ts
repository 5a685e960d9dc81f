import { writerOf } from '../sessions/lease.js';
import type { SessionJobData, SessionQueueOptions } from './session-jobs.js';

/** One delivery of a job that a queue holds as active (being worked on). */
export interface ActiveJob {
  /** The job's id in its queue. */
  id: string;
  /** Names this delivery (the id and when it started), so a job delivered again is judged afresh. */
  delivery: string;
  data: SessionJobData;
}

/** What the watcher needs of a queue engine. */
export interface ActiveJobs {
  /** The queue's active jobs, in any process. */
  list(): Promise<ActiveJob[]>;
  /** Gives `job` (this delivery of it, no other) back to the queue at once, for any worker to take. */
  handOn(job: ActiveJob): Promise<void>;
  /** Ids of the jobs this process is running: alive, whatever their session's lease says. */
  ours(): ReadonlySet<string>;
}

/** How often a worker looks for jobs whose worker died, unless takeoverCheckMs says otherwise. */
export const DEFAULT_TAKEOVER_CHECK_MS = 500;

/**
 * Hands on the active jobs whose worker died, judged by their session's lease (writerOf()), so
 * another worker continues the session at once instead of after the queue's own timeout (a lock or
 * an expiry, tens of seconds): a job whose session's writer is gone (provably dead on this host, or
 * its lease ran out, for one on another host or in another container) is handed on when seen; one
 * whose session has no lease at two looks in a row (its worker died between operations, or before
 * its first) at the second. Every worker of the queue looks, every `intervalMs`, so with n workers a
 * death is seen within about intervalMs / n. A job handed on by mistake (a live worker between two
 * operations for longer than a look) only runs once more: every delivery is idempotent.
 */
export function watchStaleJobs(
  options: SessionQueueOptions,
  jobs: ActiveJobs,
  onError: (error: unknown) => void,
): { stop(): void } {
  const intervalMs = options.takeoverCheckMs ?? DEFAULT_TAKEOVER_CHECK_MS;
  if (intervalMs <= 0) return { stop() {} };
  /** Deliveries seen with no lease at the last look. */
  let unleased = new Set<string>();
  let looking = false;
  const look = async () => {
    const seen = new Set<string>();
    const ours = jobs.ours();
    for (const job of await jobs.list()) {
      if (ours.has(job.id)) continue;
      try {
        const writer = await writerOf(options.session(job.data.sessionId).store, job.data.sessionId);
        if (writer === 'held') continue;
        if (writer === 'gone' || unleased.has(job.delivery)) await jobs.handOn(job);
        else seen.add(job.delivery);
      } catch (error) {
        onError(error); // this job is looked at again next time
      }
    }
    unleased = seen;
  };
  const timer = setInterval(
    () => {
      if (looking) return;
      looking = true;
      look()
        .catch(onError)
        .finally(() => {
          looking = false;
        });
    },
    Math.max(50, intervalMs),
  );
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
