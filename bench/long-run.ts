/**
 * The long-run benchmark: 2,000 steps of about 550 tokens each (a note and a file read a
 * step) in the real step loop (AgentExecutor with the compaction hook and the preflight
 * fit), at a 32K and a 128K window, for each configuration a user picks. Reports what a
 * user gets: requests over the window, compactions, the executor's last-resort fits and
 * the tokens they dropped, and the input billed under both cache price models; and the
 * hook's cost per step (./step-clock.ts: CPU time, wall-clock beside it) at the start and at
 * the end of the run, and what a compaction costs as the transcript grows.
 *
 * Each configuration runs once short to warm up, then LOUSHO_BENCH_REPS times (3 by default);
 * the runs are checked to do the same work. Each statistic is taken on each run, and the
 * report gives the median of the runs with their range (./long-run-report.ts says why not
 * the least of the runs).
 *
 * Run it alone with `npm run bench -- long-run` or `npx tsx bench/long-run.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { CompactionHookOptions } from '../src/compaction/compaction-hook.js';
import { compactorStrategy } from '../src/compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../src/compaction/prune-tool-results.js';
import { twoPhaseStrategy } from '../src/compaction/two-phase.js';
import { estimateTokens, messageTokens, tokenProfile } from '../src/models/estimate-tokens.js';
import { type HookTimes, instantSummarizer, type LongRunRecord, runLongAgent } from '../src/test-support/long-run.js';
import { renderLongRunMarkdown } from './long-run-report.js';
import { pruneWalk } from './prune-walk.js';
import { BillingMeter, PRICE_MODELS } from './replay-metrics.js';
import { median, type StepStats, stepStats } from './stats.js';
import { startClock } from './step-clock.js';

export { renderLongRunMarkdown } from './long-run-report.js';

export const LONG_RUN_STEPS = 2_000;
export const LONG_RUN_WINDOWS: readonly number[] = [32_768, 128_000];
/** Steps of the warm-up run each configuration gets first, at the smaller window, so it compacts. */
const WARM_UP_STEPS = 300;

/** A configuration of the long run: a name and the hook options it installs. */
export interface LongRunConfiguration {
  name: string;
  options: () => CompactionHookOptions;
}

/** The configurations, in report order. */
export function longRunConfigurations(): LongRunConfiguration[] {
  const summarizer = () => instantSummarizer();
  return [
    { name: 'compaction: true (prune only)', options: () => ({ strategy: pruneToolResultsStrategy() }) },
    { name: 'summarizer (two-phase)', options: () => ({ strategy: twoPhaseStrategy({ model: summarizer() }) }) },
    { name: 'compactorStrategy()', options: () => ({ strategy: compactorStrategy() }) },
    { name: "lean (mode: 'lean')", options: () => ({ mode: 'lean' }) },
  ];
}

/** What one run's hook took: per tenth of the steps in both clocks, and at the steps that compacted. */
export interface LongRunTiming {
  first: { cpu: StepStats; wall: StepStats };
  last: { cpu: StepStats; wall: StepStats };
  /** The steps whose compaction changed the transcript: how many in each tenth of the steps, the first and the last tenth of them. */
  compacting: {
    steps: number;
    inFirstTenth: number;
    inLastTenth: number;
    first: { cpuMedianMs: number; messages: number; fromStep: number; toStep: number };
    last: { cpuMedianMs: number; messages: number; fromStep: number; toStep: number };
  };
}

export interface LongRunRow {
  configuration: string;
  window: number;
  steps: number;
  overWindow: number;
  peakTokens: number;
  compactions: number;
  fits: number;
  fitDroppedTokens: number;
  /** Input billed over the run per price model, in tokens at the full price. */
  billed: { prices: string; tokens: number }[];
  /** Tokens added per step (the median growth of the request before the first compaction). */
  tokensPerStep: number;
  /** One entry per measured run. */
  runs: LongRunTiming[];
}

export interface LongRunReport {
  steps: number;
  /** Measured runs of each configuration (after one warm-up run). */
  repetitions: number;
  rows: LongRunRow[];
  seconds: number;
  /** What the clocks read around nothing (median): what timing itself adds to each timed call. */
  clock: { cpuMs: number; wallMs: number };
  /** One prune by the transcript's length alone (./prune-walk.ts): its CPU time in each repetition. */
  walk: { messages: number; cpuMs: number[] }[];
}

/** The run's statistics: each tenth in both clocks, and the steps that compacted (with the transcript's length there). */
function timing(run: LongRunRecord, hook: HookTimes, lengths: readonly number[], steps: number): LongRunTiming {
  const tenth = Math.max(1, Math.floor(steps / 10));
  const slice = (from: number, to: number) => ({
    cpu: stepStats(hook.cpuMs.slice(from, to)),
    wall: stepStats(hook.wallMs.slice(from, to)),
  });
  const compacted = [
    ...new Set(
      run.events.flatMap((e) => (e.type === 'compaction.done' && e.unchanged !== true ? [e.step as number] : [])),
    ),
  ].sort((a, b) => a - b);
  const part = Math.max(1, Math.floor(compacted.length / 10));
  const group = (list: number[]) => ({
    cpuMedianMs: median(list.map((s) => hook.cpuMs[s - 1] as number)),
    messages: median(list.map((s) => lengths[s - 1] as number)),
    fromStep: list[0] ?? 0,
    toStep: list[list.length - 1] ?? 0,
  });
  return {
    first: slice(0, tenth),
    last: slice(steps - tenth, steps),
    compacting: {
      steps: compacted.length,
      inFirstTenth: compacted.filter((s) => s <= tenth).length,
      inLastTenth: compacted.filter((s) => s > steps - tenth).length,
      first: group(compacted.slice(0, part)),
      last: group(compacted.slice(-part)),
    },
  };
}

/** What reading the clocks around nothing measures (median of 1,000): timing's own cost per timed call, in each clock. */
function clockCost(): { cpuMs: number; wallMs: number } {
  const took = Array.from({ length: 1_000 }, () => startClock()());
  return { cpuMs: median(took.map((t) => t.cpuMs)), wallMs: median(took.map((t) => t.wallMs)) };
}

export async function runLongRuns(
  options: {
    steps?: number;
    windows?: readonly number[];
    configurations?: LongRunConfiguration[];
    repetitions?: number;
  } = {},
): Promise<LongRunReport> {
  const started = performance.now();
  const steps = options.steps ?? LONG_RUN_STEPS;
  const repetitions = options.repetitions ?? Number(process.env.LOUSHO_BENCH_REPS ?? 3);
  const windows = options.windows ?? LONG_RUN_WINDOWS;
  const configurations = options.configurations ?? longRunConfigurations();
  const warn = console.warn;
  console.warn = () => {}; // the one-time warnings, once per configuration
  try {
    // Warm up the tokenizer and each configuration's code paths, so a first tenth times the hook, not the JIT.
    for (const configuration of configurations) {
      const warmUp = Math.min(steps, WARM_UP_STEPS);
      await runLongAgent({ steps: warmUp, contextWindow: Math.min(...windows), compaction: configuration.options() });
    }
    const clock = clockCost();
    const rows: LongRunRow[] = [];
    for (const window of windows) {
      for (const configuration of configurations) {
        const profile = tokenProfile('long-run-model');
        const count = (m: Parameters<typeof messageTokens>[0]) => messageTokens(m, profile);
        const fixed = estimateTokens({ model: 'long-run-model', messages: [] });
        const meters = PRICE_MODELS.map((prices) => new BillingMeter(count, fixed, prices));
        let first: LongRunRecord | undefined;
        const runs: LongRunTiming[] = [];
        for (let r = 0; r < repetitions; r++) {
          const lengths: number[] = [];
          const run = await runLongAgent({
            steps,
            contextWindow: window,
            compaction: configuration.options(),
            clock: startClock,
            onRequest: (request) => {
              lengths.push(request.messages.length);
              if (r === 0) for (const meter of meters) meter.add(request.messages);
            },
          });
          if (first === undefined) first = run;
          else if (run.compactions !== first.compactions || run.received.join() !== first.received.join()) {
            throw new Error(`${configuration.name}: a repetition of the long run did different work.`);
          }
          const measured = timing(run, run.hook, lengths, steps);
          console.error(
            `[bench] long run: ${configuration.name} at ${window}, run ${r + 1}: ${JSON.stringify(measured)}`,
          );
          runs.push(measured);
        }
        const run = first as LongRunRecord;
        const growth = run.received.slice(1, 40).map((t, i) => t - (run.received[i] as number));
        rows.push({
          configuration: configuration.name,
          window,
          steps,
          overWindow: run.received.filter((t) => t > window).length,
          peakTokens: Math.max(...run.received),
          compactions: run.compactions,
          fits: run.fits.length,
          fitDroppedTokens: run.fits.reduce((a, f) => a + Math.max(0, f.before - f.after), 0),
          billed: meters.map((meter, k) => ({ prices: PRICE_MODELS[k]?.name ?? '', tokens: meter.billedTokens })),
          tokensPerStep: median(growth),
          runs,
        });
      }
    }
    const walks = Array.from({ length: repetitions }, () => pruneWalk());
    const walk = (walks[0] ?? []).map((w, k) => ({
      messages: w.messages,
      cpuMs: walks.map((x) => x[k]?.cpuMs as number),
    }));
    return { steps, repetitions, rows, seconds: (performance.now() - started) / 1000, clock, walk };
  } finally {
    console.warn = warn;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runLongRuns().then(
    (report) => console.log(renderLongRunMarkdown(report)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
