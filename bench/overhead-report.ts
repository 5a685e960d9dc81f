/**
 * The overhead section of bench/RESULTS.md (see ./overhead.ts for the run). Ratios are taken
 * on CPU time within each run, then the median of the runs is given with their range.
 */

import type { OverheadReport, OverheadRun } from './overhead.js';
import { baselineMethods } from './overhead-baselines.js';
import { formatInt, formatMs, formatRatio, formatSpread, median, percentile, stepStats } from './stats.js';

/** Steps before a sampled step over which the hook's median is taken for a ratio at that step. */
const NEAR = 25;

const ms = (values: number[]) => formatSpread(values, formatMs);
const ratio = (values: number[]) => formatSpread(values, formatRatio);

/** The hook's median over the NEAR steps up to `step`, in one clock. */
function hookNear(run: OverheadRun, step: number, clock: 'cpuMs' | 'wallMs'): number {
  return median(run.hook[clock].slice(Math.max(0, step - NEAR), step));
}

function hookTable(r: OverheadReport): string[] {
  const tenth = Math.max(1, Math.floor(r.steps / 10));
  const of = (clock: 'cpuMs' | 'wallMs', at: 'first' | 'last') =>
    r.runs.map((run) => stepStats(at === 'first' ? run.hook[clock].slice(0, tenth) : run.hook[clock].slice(-tenth)));
  const [cpuFirst, cpuLast, wallFirst, wallLast] = [
    of('cpuMs', 'first'),
    of('cpuMs', 'last'),
    of('wallMs', 'first'),
    of('wallMs', 'last'),
  ] as const;
  const over = (a: typeof cpuFirst, b: typeof cpuFirst, key: 'medianMs' | 'p99Ms') =>
    ratio(a.map((x, i) => x[key] / (b[i]?.[key] as number)));
  return [
    '| | median, first tenth | median, last tenth | median, last / first | p99, first tenth | p99, last tenth | p99, last / first | wall-clock median, last / first | wall-clock p99, last / first |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| compaction hook (preGenerate), CPU time per step | ${ms(cpuFirst.map((x) => x.medianMs))} | ${ms(cpuLast.map((x) => x.medianMs))} | ` +
      `${over(cpuLast, cpuFirst, 'medianMs')} | ${ms(cpuFirst.map((x) => x.p99Ms))} | ${ms(cpuLast.map((x) => x.p99Ms))} | ` +
      `${over(cpuLast, cpuFirst, 'p99Ms')} | ${over(wallLast, wallFirst, 'medianMs')} | ${over(wallLast, wallFirst, 'p99Ms')} |`,
  ];
}

function baselineTable(r: OverheadReport): string[] {
  const lastStep = r.sampledSteps[r.sampledSteps.length - 1] as number;
  const at = r.sampledSteps.length - 1;
  const methods = baselineMethods(r.trimMaxTokens);
  const lines = [
    '| method | steps timed per run | median / step | p99 / step | at the last step | median / hook median | at the last step / hook there | the same, wall-clock |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    `| **compaction hook** (preGenerate) | ${formatInt(r.steps)} | ${ms(r.runs.map((x) => median(x.hook.cpuMs)))} | ` +
      `${ms(r.runs.map((x) => percentile(x.hook.cpuMs, 0.99)))} | ${ms(r.runs.map((x) => hookNear(x, lastStep, 'cpuMs')))} ` +
      `(median of the last ${NEAR}) | 1x | 1x | 1x |`,
  ];
  methods.forEach((m, k) => {
    const cpu = (run: OverheadRun) => (run.baselines[k] ?? []).map((t) => t.cpuMs);
    const lastOf = (run: OverheadRun, clock: 'cpuMs' | 'wallMs') => run.baselines[k]?.[at]?.[clock] as number;
    lines.push(
      `| ${m.label} | ${r.sampledSteps.length} | ${ms(r.runs.map((x) => median(cpu(x))))} | ` +
        `${ms(r.runs.map((x) => percentile(cpu(x), 0.99)))} | ${ms(r.runs.map((x) => lastOf(x, 'cpuMs')))} | ` +
        `${ratio(r.runs.map((x) => median(cpu(x)) / median(x.hook.cpuMs)))} | ` +
        `${ratio(r.runs.map((x) => lastOf(x, 'cpuMs') / hookNear(x, lastStep, 'cpuMs')))} | ` +
        `${ratio(r.runs.map((x) => lastOf(x, 'wallMs') / hookNear(x, lastStep, 'wallMs')))} |`,
    );
  });
  return lines;
}

function byLengthTable(r: OverheadReport): string[] {
  const methods = baselineMethods(r.trimMaxTokens);
  const steps = [r.steps / 10, r.steps / 4, r.steps / 2, r.steps]
    .map((target) => r.sampledSteps.find((s) => s >= target))
    .filter((s, i, all): s is number => s !== undefined && all.indexOf(s) === i);
  return [
    `| step | transcript tokens | ${methods.map((m) => m.label.split(' ')[0]).join(' | ')} |`,
    `|---:|---:|${methods.map(() => '---:').join('|')}|`,
    ...steps.map((step) => {
      const at = r.sampledSteps.indexOf(step);
      const cells = methods.map((_, k) =>
        ratio(r.runs.map((x) => (x.baselines[k]?.[at]?.cpuMs as number) / hookNear(x, step, 'cpuMs'))),
      );
      return `| ${formatInt(step)} | ${formatInt(r.tokensAt[step] as number)} | ${cells.join(' | ')} |`;
    }),
  ];
}

function sizeCheck(r: OverheadReport): string {
  const compared = r.sampledSteps.length * r.runs.length;
  const mismatches = r.runs.reduce((n, x) => n + x.mismatches, 0);
  const largest = Math.max(...r.runs.map((x) => x.largestDifference));
  const what =
    `the size the hook measured (its RequestBudget's count of the messages and the bash tool's definition, which adds ` +
    `${formatInt(r.toolTokens)} tokens)`;
  return mismatches === 0
    ? `At every sampled step of every run (${compared} of ${compared}), ${what} equals estimateTokens from scratch of the same request (largest difference ${formatInt(largest)} tokens).`
    : `At ${mismatches} of the ${compared} sampled steps of the runs, ${what} differs from estimateTokens from scratch of the same request (largest difference ${formatInt(largest)} tokens).`;
}

/** The report as a markdown section. */
export function renderOverheadMarkdown(r: OverheadReport): string {
  const first = r.runs[0] as OverheadRun;
  const finalTokens = r.tokensAt[r.steps] as number;
  const rate = median(r.runs.map((x) => x.tiktokenTokensPerSecond));
  const lines = [
    '## Overhead of the compaction hook per step',
    '',
    `A scripted run of ${formatInt(r.steps)} steps; each step appends one assistant tool call and its tool result ` +
      `(real bash calls and outputs from the corpus, ${formatInt(r.corpusPairs)} pairs cycled, the step number added to each). ` +
      `The final transcript has ${formatInt(r.finalMessages)} messages, ${formatInt(r.finalChars)} characters and ` +
      `**${formatInt(finalTokens)} tokens** by estimateTokens with the tool definition (${formatInt(first.counts.tiktokenTokens)} ` +
      `by the js-tiktoken recount of (c), ${formatInt(first.counts.gptTokenizerTokens)} by the gpt-tokenizer recount of (d), ` +
      'which counts no framing).',
    '',
    'The hook is `createCompactionHook({ contextWindow: 2_000_000 })` (threshold 1.8M tokens, so it never compacts and the ' +
      "time is the measuring alone); its `preGenerate` gets `{ model: 'gpt-4.1', messages, tools: [BASH_TOOL] }` and is timed " +
      `at every step. The baselines are expensive, so they are timed at every ${r.sampleEvery}th step (${r.sampledSteps.length} ` +
      "steps), on the same transcript prefixes, after the hook's steps. Times are CPU time (process.cpuUsage(): every " +
      'thread of the process, the garbage collector included, and none of the time spent waiting for a core), with ' +
      `wall-clock ratios beside. After a warm-up the whole run is repeated ${r.repetitions} times; each statistic and ratio ` +
      'is taken on each run, and a cell gives the median of the runs with their range in brackets. A ratio at a step is ' +
      `the baseline's time there over the hook's median over the ${NEAR} steps up to it. With ${r.sampledSteps.length} ` +
      "samples a baseline's p99 is its maximum, at or near the last (largest) step.",
    '',
    ...hookTable(r),
    '',
    ...baselineTable(r),
    '',
    `The ratio as the run grows: each baseline's CPU time at that step over the hook's median over the ${NEAR} steps up to it. ` +
      "The hook's cost follows what is new and a recount's the whole transcript, so the ratio grows with the run.",
    '',
    ...byLengthTable(r),
    '',
    'What each baseline times:',
    '',
    ...baselineMethods(r.trimMaxTokens).map((m) => `- ${m.label}: ${m.method}.`),
    '',
    sizeCheck(r),
    '',
    `trimMessages at the last step kept ${formatInt(first.counts.trim.keptMessages)} messages and called its tokenCounter ` +
      `${formatInt(first.counts.trim.counterCalls)} times (strategy 'last' counts the whole list, then the list without its ` +
      `oldest message, and so on, until it fits). The counts it was handed sum to ${formatInt(first.counts.trim.tokensHanded)} ` +
      `tokens: a counter without a memo would encode all of them, about ${formatInt(first.counts.trim.tokensHanded / rate)} s ` +
      `of CPU time at the ${formatInt(rate)} tokens/s js-tiktoken reached in (c) (extrapolated, not measured). Mastra's ` +
      'TokenLimiter walks newest-first and stops at its limit, so with a limit below the transcript it encodes only up to ' +
      'that limit; (c) counts every message, which is what a compaction trigger needs.',
    '',
    `Node ${r.node}, ${r.cpus} CPUs. Run time: ${r.runSeconds.toFixed(1)} s.`,
  ];
  return `${lines.join('\n')}\n`;
}
