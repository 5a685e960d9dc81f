import type PgBoss from 'pg-boss';
import type { ActiveJob } from './stale-jobs.js';

/** A job as pg-boss's fetch() returns it with its metadata. */
type FetchedJob<T> = PgBoss.JobWithMetadata<T>;

/** What one fetch loop needs. */
export interface FetchLoopOptions<T> {
  boss: PgBoss;
  name: string;
  /** pg-boss's schema, for the statements pg-boss has no method for. */
  schema: string;
  /** Jobs run at a time. */
  concurrency: number;
  /** The wait after a fetch that found no job, in ms (a job ending or one sent here ends it early). */
  pollingMs: number;
  /** How long a job may go unrenewed before pg-boss's maintenance expires it, in s, when the job does not say (its own expiry, set where its queue was made, is renewed every third of it). */
  expireInSeconds: number;
  /** Runs one job; what it resolves to is the job's output, what it throws fails the job (pg-boss retries it). */
  run(job: FetchedJob<T>): Promise<Record<string, unknown>>;
  onError(error: unknown): void;
}

/** A running loop: what it runs now, how to wake it early, how to stop it. */
export interface FetchLoop {
  /** Ids of the jobs it is running. */
  readonly running: ReadonlySet<string>;
  /** Ends its wait now (a job was sent by this process, say). */
  wake(): void;
  /** Takes no more jobs and resolves once the ones it runs ended. */
  stop(): Promise<void>;
}

const q = (schema: string) => `"${schema.replace(/"/g, '""')}"`;

/**
 * Keeps `concurrency` jobs running from pg-boss: it fetches as many as it has free slots, and
 * fetches again as soon as one ends (pg-boss's own work() fetches once per polling interval and
 * sleeps the rest of it, about 2 jobs a second per call). While a job runs its expiry is renewed, so
 * a turn of any length is never expired and handed to another worker while it runs; a killed
 * worker's job stops being renewed and expires expireInSeconds later (or is handed on sooner, see
 * stale-jobs.ts).
 */
export function fetchLoop<T extends object>(options: FetchLoopOptions<T>): FetchLoop {
  const { boss, name } = options;
  const running = new Set<string>();
  const ended = new Set<Promise<void>>();
  let stopping = false;
  /** Set when a job ended or one was sent here while the loop was not waiting: it does not wait then. */
  let woken = false;
  let endWait: (() => void) | undefined;
  const wake = () => {
    woken = true;
    endWait?.();
  };
  const renew = `UPDATE ${q(options.schema)}.job SET expire_in = (now() - started_on) + $3 * interval '1 second'
    WHERE name = $1 AND id = $2 AND state = 'active'`;
  const start = (job: FetchedJob<T>) => {
    running.add(job.id);
    const expiry = Number(job.expireInSeconds) > 0 ? Number(job.expireInSeconds) : options.expireInSeconds;
    const keepAlive = setInterval(
      () => void boss.getDb().executeSql(renew, [name, job.id, expiry]).catch(options.onError),
      Math.max(200, (expiry * 1000) / 3),
    );
    keepAlive.unref?.();
    const done: Promise<void> = options
      .run(job)
      .then(
        (output) => boss.complete(name, job.id, output),
        (error: unknown) => boss.fail(name, job.id, failure(error)),
      )
      .then(
        () => {},
        (error: unknown) => options.onError(error),
      )
      .finally(() => {
        clearInterval(keepAlive);
        running.delete(job.id);
        ended.delete(done);
        wake();
      });
    ended.add(done);
  };
  const loop = async () => {
    while (!stopping) {
      const free = options.concurrency - running.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = (await boss.fetch<T>(name, { batchSize: free, includeMetadata: true })) ?? [];
          fetched = jobs.length;
          for (const job of jobs) start(job);
        } catch (error) {
          options.onError(error);
        }
      }
      if (fetched > 0 && fetched === free) continue; // every slot filled: more may wait
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, free > 0 ? options.pollingMs : 60_000);
          endWait = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      woken = false;
      endWait = undefined;
    }
  };
  const looping = loop();
  return {
    running,
    wake,
    async stop() {
      stopping = true;
      wake();
      await looping;
      await Promise.all([...ended]);
    },
  };
}

/** What a failed job keeps as its output: the error's code and message. */
function failure(error: unknown): Record<string, unknown> {
  const e = error as { code?: unknown; message?: unknown };
  return { code: typeof e?.code === 'string' ? e.code : undefined, message: String(e?.message ?? error) };
}

/** The active jobs of queue `name` in pg-boss's table, and how to hand one on (this delivery only). */
export function activeJobsOf<T>(boss: PgBoss, schema: string, name: string) {
  const list = `SELECT id, data, started_on::text AS started FROM ${q(schema)}.job WHERE name = $1 AND state = 'active'`;
  // Back to be fetched at once, as pg-boss's own expiry puts it, if it is still the delivery judged.
  const handOn = `UPDATE ${q(schema)}.job SET state = 'retry', start_after = now()
    WHERE name = $1 AND id = $2 AND state = 'active' AND started_on = $3::timestamptz`;
  return {
    async list(): Promise<ActiveJob[]> {
      const { rows } = await boss.getDb().executeSql(list, [name]);
      return rows.map((row: { id: string; data: T; started: string }) => ({
        id: row.id,
        delivery: `${row.id}:${row.started}`, // to the microsecond, as the table holds it
        data: row.data as ActiveJob['data'],
      }));
    },
    async handOn(job: ActiveJob): Promise<void> {
      const startedOn = job.delivery.slice(job.id.length + 1);
      await boss.getDb().executeSql(handOn, [name, job.id, startedOn]);
    },
  };
}
