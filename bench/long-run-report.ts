/**
 * The long-run section of bench/RESULTS.md (see ./long-run.ts for the run). Every timing
 * cell is the median of the measured runs with their range: each statistic (a tenth's median
 * or p99, a ratio) is taken on each run, and only then across runs. The section used to take
 * each step's least time over the runs and then the statistics of that: a run that never
 * happened, from which any cost that every run pays at a different step (a garbage
 * collection, a compilation) is dropped, so its p99 is biased low and falls as repetitions
 * are added. The least of the runs was there to remove the waits for a core on a loaded
 * machine; CPU time does not count those waits at all.
 */
import type { LongRunReport, LongRunRow, LongRunTiming } from './long-run.js';
import { formatInt, formatMs, formatRatio, formatSpread } from './stats.js';

const ms = (values: number[]) => formatSpread(values, formatMs);
const ratio = (values: number[]) => formatSpread(values, formatRatio);
const of = (row: LongRunRow, pick: (run: LongRunTiming) => number) => row.runs.map(pick);

function intro(report: LongRunReport): string {
  const perStep = report.rows[0]?.tokensPerStep ?? 0;
  return (
    `${formatInt(report.steps)} steps in the real step loop (AgentExecutor with the compaction hook and the ` +
    `executor's preflight fit): at each step a scripted model writes a short note and reads one more file, ` +
    `${formatInt(perStep)} tokens a step, so the run adds about ${formatInt((perStep * report.steps) / 1000)}K tokens ` +
    "in all. The hook is timed at every step (its preGenerate, postGenerate and overflow recovery, a summarizer's " +
    'call included) in CPU time (process.cpuUsage(): every thread of the process, the garbage collector included, ' +
    'and none of the time spent waiting for a core) and in wall-clock time. Each configuration runs once short to warm up, ' +
    `then ${report.repetitions} times, and each run does the same work (checked). Each statistic is taken on each run; a ` +
    'cell gives the median of the runs and, in brackets, their range. (The least time of each step over the runs, which ' +
    'this section used to report, makes a run that never happened: a cost every run pays at a different step, such as a ' +
    'garbage collection, vanishes from every step, so its p99 is too low, and lower the more runs there are.) ' +
    `Reading the clocks around nothing takes ${formatMs(report.clock.cpuMs)} of CPU time and ${formatMs(report.clock.wallMs)} of wall-clock time, at each timed call (two a step, three with a recovery). ` +
    `Run time: ${report.seconds.toFixed(1)} s.`
  );
}

/** Which rows' p99 ratio compares a compaction's cost with a step that only measures. */
function p99Note(report: LongRunReport, enough: number): string {
  const mixed = report.rows.filter((r) => {
    const c = (r.runs[0] as LongRunTiming).compacting;
    return c.inFirstTenth < enough && c.inLastTenth >= enough;
  });
  if (mixed.length === 0) {
    return `In every row both tenths have ${enough} or more compacting steps, or neither has: each p99 ratio compares like with like.`;
  }
  const names = mixed.map((r) => `${r.configuration} at ${formatInt(r.window)}`).join('; ');
  return (
    `In ${mixed.length} of the ${report.rows.length} rows (${names}) the first tenth has fewer than ${enough} compacting ` +
    `steps and the last tenth ${enough} or more: there the first tenth's p99 is a step that only measures the request ` +
    "and the last tenth's a step that compacts, so the p99 ratio is the cost of a compaction over that of a " +
    "measurement, not growth with the run. The next table gives a compaction's cost on its own."
  );
}

/** The long-run section as markdown. */
export function renderLongRunMarkdown(report: LongRunReport): string {
  const prices = report.rows[0]?.billed.map((b) => b.prices) ?? [];
  const name = (r: LongRunRow) => `| ${r.configuration} | ${formatInt(r.window)} |`;
  const tenth = Math.max(1, Math.floor(report.steps / 10));
  const rank = Math.ceil(0.99 * tenth);
  const lines = [
    '## Long runs',
    '',
    intro(report),
    '',
    '**What a user gets** (the same in every run):',
    '',
    `| configuration | window | requests over window | peak request | compactions | last-resort fits (tokens dropped) | ${prices.map((p) => `${p} billed`).join(' | ')} |`,
    `|---|---:|---:|---:|---:|---:|${prices.map(() => '---:').join('|')}|`,
    ...report.rows.map(
      (r) =>
        `${name(r)} ${r.overWindow} | ${formatInt(r.peakTokens)} | ${r.compactions} | ` +
        `${r.fits} (${formatInt(r.fitDroppedTokens)}) | ${r.billed.map((b) => formatInt(b.tokens)).join(' | ')} |`,
    ),
    '',
    "**The hook's CPU time per step**, over the first and the last tenth of the steps, and the last over the first " +
      '(the ratio taken in each run); wall-clock ratios beside:',
    '',
    '| configuration | window | steps that compacted, first / last tenth | median, first tenth | median, last tenth | median, last / first | p99, first tenth | p99, last tenth | p99, last / first | wall-clock median, last / first | wall-clock p99, last / first |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (r) =>
        `${name(r)} ${(r.runs[0] as LongRunTiming).compacting.inFirstTenth} / ${(r.runs[0] as LongRunTiming).compacting.inLastTenth} | ` +
        `${ms(of(r, (x) => x.first.cpu.medianMs))} | ${ms(of(r, (x) => x.last.cpu.medianMs))} | ` +
        `${ratio(of(r, (x) => x.last.cpu.medianMs / x.first.cpu.medianMs))} | ` +
        `${ms(of(r, (x) => x.first.cpu.p99Ms))} | ${ms(of(r, (x) => x.last.cpu.p99Ms))} | ` +
        `${ratio(of(r, (x) => x.last.cpu.p99Ms / x.first.cpu.p99Ms))} | ` +
        `${ratio(of(r, (x) => x.last.wall.medianMs / x.first.wall.medianMs))} | ` +
        `${ratio(of(r, (x) => x.last.wall.p99Ms / x.first.wall.p99Ms))} |`,
    ),
    '',
    p99Note(report, tenth - rank + 1),
    '',
    "**A compaction's cost as the transcript grows**: the hook's CPU time at the steps whose compaction changed the " +
      'transcript, median over the first and the last tenth of those steps, with the length of the transcript there:',
    '',
    '| configuration | window | steps that compacted | first tenth of them: steps, median messages | CPU median | last tenth of them: steps, median messages | CPU median | last / first |',
    '|---|---:|---:|---|---:|---|---:|---:|',
    ...report.rows.map((r) => {
      const c = (r.runs[0] as LongRunTiming).compacting;
      const where = (g: typeof c.first) => `${g.fromStep}–${g.toStep}, ${formatInt(g.messages)}`;
      return (
        `${name(r)} ${c.steps} | ${where(c.first)} | ${ms(of(r, (x) => x.compacting.first.cpuMedianMs))} | ` +
        `${where(c.last)} | ${ms(of(r, (x) => x.compacting.last.cpuMedianMs))} | ` +
        `${ratio(of(r, (x) => x.compacting.last.cpuMedianMs / x.compacting.first.cpuMedianMs))} |`
      );
    }),
    '',
    "A compaction's CPU time has two parts: a walk over every message of the transcript (the prune step reads each " +
      'one, in the two-phase strategy too) and the work for each result it replaces (a marker written and counted), so ' +
      "a run's first compactions, which replace the most results, cost the most. The walk grows with the transcript's " +
      "length in messages: one prune of the long run's transcript with every old result already a marker, the newest " +
      'three whole, by length alone (bench/prune-walk.ts; the median of 200 calls, per run):',
    '',
    '| messages | one prune, CPU time | per message |',
    '|---:|---:|---:|',
    ...report.walk.map(
      (w) =>
        `| ${formatInt(w.messages)} | ${ms(w.cpuMs)} | ${formatSpread(
          w.cpuMs.map((x) => (1000 * x) / w.messages),
          (x) => `${x.toFixed(2)} µs`,
        )} |`,
    ),
    '',
    'In these runs the length stops growing once the transcript fills the window: the threshold holds it there, and ' +
      'where prune alone cannot, the overflow recovery cuts it (the last-resort fits of the first table). A window ' +
      'that holds more messages makes every compaction walk more.',
    '',
    '*billed*: every request of the run billed with the prefix it shares with the previous request at the cache-read ' +
      'price (10%) and the rest at the write price (OpenAI: 100%, Anthropic: 125%), in full-price tokens. ' +
      `*p99*: the 99th percentile by nearest rank of the ${formatInt(tenth)} steps of a tenth (the ${formatInt(rank)}th), ` +
      `so it is a compacting step whenever the tenth has ${tenth - rank + 1} or more.`,
    '',
  ];
  return lines.join('\n');
}
