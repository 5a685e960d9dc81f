/**
 * Workers on a queue, over Redis (BullMQ) and over Postgres (pg-boss), on turns that wait as real
 * ones do: each model reply takes 200–800 ms and each tool run 20–200 ms (random), a 10-step turn
 * with an approval. Worker processes (4 jobs at a time each) serve 30 sessions per worker: 1, 2, 4
 * and 8 workers without kills, then 8 with one SIGKILLed (and a new one started) every 1–5 s, each
 * turn enqueued twice, with the queues' own timeouts at their defaults (BullMQ's 30-s lock,
 * pg-boss's 60-s expiry). Beside them: the queue's own ceiling (trivial jobs through one consumer,
 * 4 at a time) and one worker serving trivial turns (one reply at once, no tool). Every figure is
 * from one run of this bench, a ratio to the 1-worker run of the same engine, with the load average
 * before and after it. LOUSHO_BENCH_WORKERS=<most workers>,<sessions per worker> sets another scale.
 *
 * Run alone: npm run bench -- workers (replaces its section of bench/RESULTS.md).
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { queueCeiling } from '../src/test-support/queue-ceiling.js';
import { type QueueLoadOptions, type QueueLoadReport, runQueueLoad } from '../src/test-support/queue-load.js';
import { serverProblems } from '../src/test-support/store-backends.js';
import { formatInt, formatMs, formatRatio } from './stats.js';

type Engine = 'bullmq' | 'pg-boss';

/** One run, with the machine's 1-minute load average before and after it. */
export interface WorkersRun {
  workers: number;
  kills: boolean;
  report: QueueLoadReport;
  load: [number, number];
}

export interface WorkersEngine {
  engine: Engine;
  /** Trivial jobs a second through the queue itself, and trivial turns a second of one worker. */
  ceiling: number;
  trivial: WorkersRun;
  runs: WorkersRun[];
}

export interface WorkersReport {
  engines: WorkersEngine[];
  skipped: string[];
  sessionsPerWorker: number;
}

const MODEL_MS: [number, number] = [200, 800];
const TOOL_MS: [number, number] = [20, 200];

async function measured(workers: number, kills: boolean, run: () => Promise<QueueLoadReport>): Promise<WorkersRun> {
  const before = loadavg()[0] as number;
  const report = await run();
  return { workers, kills, report, load: [before, loadavg()[0] as number] };
}

/** Runs the bench at the scale LOUSHO_BENCH_WORKERS gives (8 workers, 30 sessions a worker by default). */
export async function runWorkers(log: (line: string) => void = () => {}): Promise<WorkersReport> {
  const [most, perWorker] = (process.env.LOUSHO_BENCH_WORKERS ?? '8,30').split(',').map(Number) as [number, number];
  const problems = await serverProblems();
  const engines: WorkersEngine[] = [];
  const skipped: string[] = [];
  for (const engine of ['bullmq', 'pg-boss'] as const) {
    const problem = engine === 'bullmq' ? problems.redis : problems.postgres;
    if (problem !== undefined) {
      skipped.push(`${engine}: ${problem}`);
      continue;
    }
    const progress = (what: string) => (line: string) => log(`[workers] ${engine}, ${what}: ${line}`);
    log(`[workers] ${engine}: the queue's ceiling, then one worker of trivial turns`);
    const ceiling = await queueCeiling(engine, 2_000, 4);
    const trivial = await measured(1, false, () =>
      runQueueLoad({ engine, workers: 1, sessions: 400, steps: 0, kills: { max: 0 }, deadlineMs: 600_000 }),
    );
    const base: Omit<QueueLoadOptions, 'workers' | 'sessions' | 'kills'> = {
      engine,
      steps: 10,
      modelMs: MODEL_MS,
      toolMs: TOOL_MS,
      deadlineMs: 30 * 60_000,
    };
    const runs: WorkersRun[] = [];
    for (const workers of [1, 2, 4, 8].filter((n) => n <= most)) {
      log(`[workers] ${engine}: ${workers} workers, ${workers * perWorker} sessions`);
      const run = () =>
        runQueueLoad({
          ...base,
          workers,
          sessions: workers * perWorker,
          kills: { max: 0 },
          progress: progress(`${workers}`),
        });
      runs.push(await measured(workers, false, run));
    }
    log(`[workers] ${engine}: ${most} workers, a SIGKILL every 1-5 s`);
    const killed = () =>
      runQueueLoad({
        ...base,
        workers: most,
        sessions: most * perWorker,
        kills: { minMs: 1_000, maxMs: 5_000, max: 10_000 },
        duplicates: true,
        progress: progress('kills'),
      });
    runs.push(await measured(most, true, killed));
    engines.push({ engine, ceiling, trivial, runs });
  }
  return { engines, skipped, sessionsPerWorker: perWorker };
}

const perSecond = (r: QueueLoadReport) => r.turns / r.seconds;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const load = (run: WorkersRun) => `${run.load[0].toFixed(1)} → ${run.load[1].toFixed(1)}`;

/** The bench's section of bench/RESULTS.md. */
export function renderWorkersMarkdown(report: WorkersReport): string {
  const lines = [
    '## Workers on a queue, with workers SIGKILLed',
    '',
    `Worker processes (4 jobs at a time each) serve ${report.sessionsPerWorker} sessions per worker of a 10-step turn with an`,
    `approval each, from BullMQ (Redis) or pg-boss 10 (Postgres). A model reply takes ${MODEL_MS[0]}–${MODEL_MS[1]} ms and a tool run`,
    `${TOOL_MS[0]}–${TOOL_MS[1]} ms (random), as a turn that waits on a model and on tools does. The bench approves each call as it`,
    'is asked; in the last run of each engine it SIGKILLs a random worker every 1–5 s (starting a new one) and',
    "enqueues every turn twice, with the queue's own timeouts at their defaults (BullMQ's 30-s lock, pg-boss's 60-s",
    "expiry): a killed worker's job is handed on from its session's lease. A takeover is timed, for each session the",
    'killed worker was in the middle of, from the kill to another worker taking its lease over from the dead holder,',
    "and to the turn's next save (after its next model reply, when the kill came during one). Counts come from the store and from a",
    'ledger the tools write before and after they run. Ratios are to the 1-worker run of the same engine in this',
    'run; the load average (1 minute) is read before and after each run.',
    '',
    "| engine | workers × sessions | kills | turns/s | × 1 worker | load before → after | lost / doubled turns | doubled tool runs | approvals applied twice | tool runs | bytes per step | lease taken over after a kill; the turn's next save (median, max, count) | run time |",
    '|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---|---:|',
  ];
  for (const e of report.engines) {
    const one = e.runs.find((r) => r.workers === 1 && !r.kills);
    for (const run of e.runs) {
      const r = run.report;
      const spread = (values: number[]) => {
        const ms = sorted(values);
        return ms.length === 0
          ? '–'
          : `${formatMs(ms[Math.floor(ms.length / 2)] ?? 0)}, ${formatMs(ms.at(-1) ?? 0)} (${ms.length})`;
      };
      const takeover = `${spread(r.takenOverMs)}; ${spread(r.takeoverMs)}`;
      const ratio = one === undefined ? '–' : formatRatio(perSecond(r) / perSecond(one.report));
      lines.push(
        `| ${e.engine} | ${run.workers} × ${run.workers * report.sessionsPerWorker} | ${r.kills} | ${perSecond(r).toFixed(2)} | ${ratio} | ${load(run)} | ` +
          `${r.lostTurns} / ${r.doubledTurns} | ${r.doubledToolRuns} | ${r.approvalsAppliedTwice} | ${formatInt(r.toolRuns)} | ${formatInt(r.bytesPerStep)} | ${takeover} | ${Math.round(r.seconds)} s |`,
      );
    }
  }
  lines.push(
    '',
    'The queue itself on the same servers, and one worker of trivial turns (one model reply at once, no tool, no approval):',
    '',
    '| engine | trivial jobs/s through one consumer, 4 at a time | trivial turns/s, one worker process (4 at a time) | load before → after |',
    '|---|---:|---:|---|',
  );
  for (const e of report.engines) {
    lines.push(
      `| ${e.engine} | ${formatInt(e.ceiling)} | ${perSecond(e.trivial.report).toFixed(1)} | ${load(e.trivial)} |`,
    );
  }
  for (const why of report.skipped) lines.push('', `Skipped ${why}.`);
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWorkers((line) => console.error(line)).then(
    (report) => console.log(renderWorkersMarkdown(report)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
