/**
 * Workers on a queue, over Redis (BullMQ) and over Postgres (pg-boss): worker processes serve
 * sessions of a 10-step turn with an approval each while one of them is SIGKILLed (and a new one
 * started) every 1–5 s, then the store and the tools' ledger are counted: lost and doubled turns,
 * doubled tool runs, approvals applied twice (all must be 0), turns per second against one
 * worker, bytes per step, and the time for another worker to take over a killed worker's
 * session. Full scale is 8 workers and 500 sessions; LOUSHO_BENCH_WORKERS=workers,sessions sets
 * another (the report says which ran). Skipped for a server that does not answer.
 *
 * Run alone: npm run bench -- workers (replaces its section of bench/RESULTS.md).
 */
import { pathToFileURL } from 'node:url';
import { type QueueLoadReport, runQueueLoad } from '../src/test-support/queue-load.js';
import { serverProblems } from '../src/test-support/store-backends.js';
import { formatInt, formatMs, formatRatio } from './stats.js';

/** One engine's runs: one worker without kills, then the many with kills. */
export interface WorkersRow {
  engine: 'bullmq' | 'pg-boss';
  single: QueueLoadReport;
  many: QueueLoadReport;
  workers: number;
  sessions: number;
}

/** Every engine whose server answers, or why it was skipped. */
export interface WorkersReport {
  rows: WorkersRow[];
  skipped: string[];
}

/**
 * Runs the bench at the scale LOUSHO_BENCH_WORKERS gives (8 workers, 500 sessions by default),
 * giving each run up to LOUSHO_BENCH_DEADLINE_MIN minutes (60 by default) before it counts the
 * unfinished turns as lost.
 */
export async function runWorkers(log: (line: string) => void = () => {}): Promise<WorkersReport> {
  const [workers, sessions] = (process.env.LOUSHO_BENCH_WORKERS ?? '8,500').split(',').map(Number) as [number, number];
  const deadlineMs = Number(process.env.LOUSHO_BENCH_DEADLINE_MIN ?? 60) * 60_000;
  const problems = await serverProblems();
  const rows: WorkersRow[] = [];
  const skipped: string[] = [];
  for (const engine of ['bullmq', 'pg-boss'] as const) {
    const problem = engine === 'bullmq' ? problems.redis : problems.postgres;
    if (problem !== undefined) {
      skipped.push(`${engine}: ${problem}`);
      continue;
    }
    const progress = (run: string) => (line: string) => log(`[workers] ${engine}, ${run}: ${line}`);
    const base = { engine, steps: 10, deadlineMs };
    const perWorker = Math.max(10, Math.ceil(sessions / workers));
    log(`[workers] ${engine}: 1 worker, ${perWorker} sessions, no kills`);
    const single = await runQueueLoad({
      ...base,
      workers: 1,
      sessions: perWorker,
      kills: { max: 0 },
      progress: progress('1 worker'),
    });
    const kills = { minMs: 1_000, maxMs: 5_000, max: 10_000 };
    log(`[workers] ${engine}: ${workers} workers, ${sessions} sessions, a SIGKILL every 1-5 s`);
    const many = await runQueueLoad({ ...base, workers, sessions, kills, progress: progress(`${workers} workers`) });
    rows.push({ engine, single, many, workers, sessions });
  }
  return { rows, skipped };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perSecond = (r: QueueLoadReport) => r.turns / r.seconds;

/** The bench's section of bench/RESULTS.md. */
export function renderWorkersMarkdown(report: WorkersReport): string {
  const lines = [
    '## Workers on a queue, with workers SIGKILLed',
    '',
    'Worker processes (4 jobs at a time each) serve sessions of a 10-step turn with an approval each from BullMQ',
    '(Redis) or pg-boss 10 (Postgres); the bench approves each call as it is asked and SIGKILLs a random worker every',
    '1–5 s, starting a new one. Counts come from the store and from a ledger the tools write before and after they',
    'run. Turns per second of one worker come from a run of one worker without kills.',
    '',
    '| engine | workers × sessions | kills | lost turns | doubled turns | doubled tool runs | approvals applied twice | tool runs | turns/s (1 worker) | turns/s (all) | × one worker | bytes per step | takeover after a kill (median, max) | run time |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of report.rows) {
    const m = row.many;
    const takeover =
      m.takeoverMs.length === 0 ? '–' : `${formatMs(median(m.takeoverMs))}, ${formatMs(Math.max(...m.takeoverMs))}`;
    lines.push(
      `| ${row.engine} | ${row.workers} × ${row.sessions} | ${m.kills} | ${m.lostTurns} | ${m.doubledTurns} | ${m.doubledToolRuns} | ` +
        `${m.approvalsAppliedTwice} | ${formatInt(m.toolRuns)} | ${perSecond(row.single).toFixed(1)} | ${perSecond(m).toFixed(1)} | ` +
        `${formatRatio(perSecond(m) / perSecond(row.single))} | ${formatInt(m.bytesPerStep)} | ${takeover} | ${Math.round(m.seconds)} s |`,
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
