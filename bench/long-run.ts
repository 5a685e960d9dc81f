/**
 * The long-run benchmark: 2,000 steps of about 550 tokens each (a note and a file read a
 * step) in the real step loop (AgentExecutor with the compaction hook and the preflight
 * fit), at a 32K and a 128K window, for each configuration a user picks. Reports what a
 * user gets: requests over the window, compactions, the executor's last-resort fits and
 * the tokens they dropped, the hook's cost per step at the start and at the end of the run,
 * and the input billed under both cache price models.
 *
 * Run it alone with `npx tsx bench/long-run.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { CompactionHookOptions } from '../src/compaction/compaction-hook.js';
import { compactorStrategy } from '../src/compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../src/compaction/prune-tool-results.js';
import { twoPhaseStrategy } from '../src/compaction/two-phase.js';
import { estimateTokens, messageTokens, tokenProfile } from '../src/models/estimate-tokens.js';
import { instantSummarizer, runLongAgent } from '../src/test-support/long-run.js';
import { BillingMeter, PRICE_MODELS } from './replay-metrics.js';
import { formatInt, formatMs, median, percentile } from './stats.js';

export const LONG_RUN_STEPS = 2_000;
export const LONG_RUN_WINDOWS: readonly number[] = [32_768, 128_000];
/** Each configuration runs this many times; a step's time is its least over them. */
export const LONG_RUN_REPETITIONS = 3;

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

export interface LongRunRow {
  configuration: string;
  window: number;
  steps: number;
  overWindow: number;
  peakTokens: number;
  compactions: number;
  fits: number;
  fitDroppedTokens: number;
  /** The hook's median and p99 per step (preGenerate and postGenerate) over the first and the last tenth of the steps. */
  firstMedianMs: number;
  firstP99Ms: number;
  lastMedianMs: number;
  lastP99Ms: number;
  /** Input billed over the run per price model, in tokens at the full price. */
  billed: { prices: string; tokens: number }[];
  /** Tokens added per step (the median growth of the request before the first compaction). */
  tokensPerStep: number;
}

export interface LongRunReport {
  steps: number;
  /** Runs of each configuration; the hook's time at a step is the least of them. */
  repetitions: number;
  rows: LongRunRow[];
  seconds: number;
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
  const repetitions = options.repetitions ?? LONG_RUN_REPETITIONS;
  const warn = console.warn;
  console.warn = () => {}; // the one-time fold warning, once per configuration
  try {
    // Warm up the tokenizer and the code paths of a compaction, so the first tenth times the hook, not the JIT.
    await runLongAgent({ steps: 300, contextWindow: 32_768, compaction: { strategy: pruneToolResultsStrategy() } });
    const rows: LongRunRow[] = [];
    for (const window of options.windows ?? LONG_RUN_WINDOWS) {
      for (const configuration of options.configurations ?? longRunConfigurations()) {
        const profile = tokenProfile('long-run-model');
        const count = (m: Parameters<typeof messageTokens>[0]) => messageTokens(m, profile);
        const fixed = estimateTokens({ model: 'long-run-model', messages: [] });
        const meters = PRICE_MODELS.map((prices) => new BillingMeter(count, fixed, prices));
        const run = await runLongAgent({
          steps,
          contextWindow: window,
          compaction: configuration.options(),
          onRequest: (request) => {
            for (const meter of meters) meter.add(request.messages);
          },
        });
        // The run is deterministic: each repetition does the same work at each step, so the
        // least time a step took is its cost without what else the machine was doing.
        const hookMs = run.hookMs.slice();
        for (let k = 1; k < repetitions; k++) {
          const again = await runLongAgent({ steps, contextWindow: window, compaction: configuration.options() });
          if (again.compactions !== run.compactions || again.received.length !== run.received.length) {
            throw new Error(`${configuration.name}: a repetition of the long run did different work.`);
          }
          again.hookMs.forEach((ms, i) => {
            hookMs[i] = Math.min(hookMs[i] ?? ms, ms);
          });
        }
        const tenth = Math.max(1, Math.floor(steps / 10));
        const first = hookMs.slice(0, tenth);
        const last = hookMs.slice(steps - tenth, steps);
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
          firstMedianMs: median(first),
          firstP99Ms: percentile(first, 0.99),
          lastMedianMs: median(last),
          lastP99Ms: percentile(last, 0.99),
          billed: meters.map((meter, k) => ({ prices: PRICE_MODELS[k]?.name ?? '', tokens: meter.billedTokens })),
          tokensPerStep: median(growth),
        });
      }
    }
    return { steps, repetitions, rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    console.warn = warn;
  }
}

export function renderLongRunMarkdown(report: LongRunReport): string {
  const prices = report.rows[0]?.billed.map((b) => b.prices) ?? [];
  const perStep = report.rows[0]?.tokensPerStep ?? 0;
  const lines = [
    '## Long runs',
    '',
    `${formatInt(report.steps)} steps in the real step loop (AgentExecutor with the compaction hook and the ` +
      `executor's preflight fit): at each step a scripted model writes a short note and reads one more file, ` +
      `${formatInt(perStep)} tokens a step, so the run adds about ${formatInt((perStep * report.steps) / 1000)}K tokens ` +
      'in all. The hook is timed at every step (preGenerate and postGenerate, a summarizer call included); a warm-up ' +
      `run goes first. Each configuration runs ${report.repetitions} times and does the same work each time (checked), ` +
      "so a step's time is the least of its runs: its cost without the machine's other work, which on a shared " +
      `machine moved a tenth's median by 2x between runs. Run time: ${report.seconds.toFixed(1)} s.`,
    '',
    `| configuration | window | requests over window | peak request | compactions | last-resort fits (tokens dropped) | hook median, first tenth | hook p99, first tenth | hook median, last tenth | hook p99, last tenth | ${prices.map((p) => `${p} billed`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${prices.map(() => '---:').join('|')}|`,
  ];
  for (const r of report.rows) {
    lines.push(
      `| ${r.configuration} | ${formatInt(r.window)} | ${r.overWindow} | ${formatInt(r.peakTokens)} | ${r.compactions} | ` +
        `${r.fits} (${formatInt(r.fitDroppedTokens)}) | ${formatMs(r.firstMedianMs)} | ${formatMs(r.firstP99Ms)} | ` +
        `${formatMs(r.lastMedianMs)} | ${formatMs(r.lastP99Ms)} | ${r.billed.map((b) => formatInt(b.tokens)).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    '*billed*: every request of the run billed with the prefix it shares with the previous request at the cache-read ' +
      'price (10%) and the rest at the write price (OpenAI: 100%, Anthropic: 125%), in full-price tokens. ' +
      '*hook p99*: the 99th percentile by nearest rank of the steps of that tenth (the 198th of 200), so it includes ' +
      'a compaction when the tenth has three or more.',
    '',
  );
  return lines.join('\n');
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
