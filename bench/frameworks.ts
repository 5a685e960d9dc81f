/**
 * The frameworks benchmark: our compaction inside the other frameworks' own loops, 1,000
 * steps each: compactionMiddleware() and compactionPrepareStep() in the AI SDK's
 * generateText and streamText tool loops, beside a fixed reference work in the same loops
 * (./ai-sdk-loops.ts); compactingSession() over their MemorySession (default and lean mode)
 * and AgentsStoreSession (over a MemorySessionStore, and a SqliteSessionStore in a file) in the
 * OpenAI Agents SDK's Runner, beside the same reference work there (./framework-loops.ts). Each loop runs
 * once short to warm up, then LOUSHO_BENCH_REPS times (3 by default). For each run it takes
 * our code's CPU time per step (see ./step-clock.ts), the median over the first and the last
 * tenth of the steps and their ratio, and how much less the last tenth costs than a plain
 * gpt-tokenizer recount of the prompt our code was handed at the last step. It reports the
 * median of the runs and their range, and the wall-clock ratio beside it.
 *
 * Run it alone with `npm run bench -- frameworks` or `npx tsx bench/frameworks.ts`;
 * `LOUSHO_BENCH_ONLY=<part of a name> npx tsx bench/frameworks.ts` runs only the integrations
 * whose name holds it (a look at one after a change; its table is not the section's).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemorySession, type Session } from '@openai/agents-core';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { AgentsStoreSession } from '../src/integrations/agents-store-session.js';
import { compactingSession } from '../src/integrations/compacting-session.js';
import { SqliteSessionStore } from '../src/sessions/sqlite-store.js';
import { MemorySessionStore } from '../src/sessions/store.js';
import {
  type AiSdkLoop,
  type LoopRun,
  MODEL,
  middlewareLoop,
  prepareStepLoop,
  RESULT_CHARS,
  referenceLoop,
  WINDOW,
} from './ai-sdk-loops.js';
import { type RunnerSession, referenceSession, runnerLoop, untimed } from './framework-loops.js';
import { formatInt, formatMs, formatRatio, formatSpread, median } from './stats.js';
import { leastOf, type StepTimes, type Took } from './step-clock.js';

export const FRAMEWORK_STEPS = 1_000;
/** Steps of the warm-up run each loop gets first, so the first tenth times our code, not the JIT. */
const WARM_UP_STEPS = 100;

/** One measured run of an integration. */
export interface FrameworkRun {
  /** Our code's CPU time per step, median over the first and the last tenth of the steps. */
  firstCpuMs: number;
  lastCpuMs: number;
  /** The same in wall-clock time. */
  firstWallMs: number;
  lastWallMs: number;
  /** A plain gpt-tokenizer recount of the prompt our code saw at the last step (the least of 3), and its tokens; none for the reference. */
  recount: (Took & { tokens: number }) | undefined;
  /** For the reference: the heap the loop keeps at its last step, in bytes. */
  heapBytes: number | undefined;
}

export interface FrameworkRow {
  name: string;
  loop: string;
  steps: number;
  runs: FrameworkRun[];
}

export interface FrameworksReport {
  rows: FrameworkRow[];
  repetitions: number;
  seconds: number;
}

/** The text of each message or item (JSON for what is not a string), as a plain recount reads it. */
function texts(list: readonly unknown[]): string[] {
  const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  const out: string[] = [];
  for (const entry of list) {
    const { content, output, arguments: args } = entry as Record<string, unknown>;
    for (const part of Array.isArray(content) ? content : [content]) {
      if (part === undefined) continue;
      const p = part as Record<string, unknown>;
      out.push(text(typeof part === 'string' ? part : (p.text ?? p.input ?? p.output ?? part)));
    }
    if (output !== undefined) out.push(text(output));
    if (args !== undefined) out.push(text(args));
  }
  return out;
}

/** A plain recount: gpt-tokenizer's countTokens of each message's or item's text, summed; the least of 3 timings. */
function recount(list: readonly unknown[]): Took & { tokens: number } {
  const parts = texts(list);
  let tokens = 0;
  const took = leastOf(3, () => {
    tokens = 0;
    for (const part of parts) tokens += gptTokenizerCount(part);
  });
  return { ...took, tokens };
}

function measured({ times, seen, heapBytes }: LoopRun): FrameworkRun {
  const tenth = Math.max(1, Math.floor(times.length / 10));
  return {
    firstCpuMs: median(times.cpuMs.slice(0, tenth)),
    lastCpuMs: median(times.cpuMs.slice(-tenth)),
    firstWallMs: median(times.wallMs.slice(0, tenth)),
    lastWallMs: median(times.wallMs.slice(-tenth)),
    recount: seen === undefined ? undefined : recount(seen),
    heapBytes,
  };
}

/** The fixed work timed in each framework's loop in our place: what the host's heap does to a step that does not change. */
const REFERENCE = 'reference: gpt-tokenizer counts one new result';
/** The same work once more right after it, at each step: what it costs when it does not run first (see referenceWork()). */
const AGAIN = 'reference, counted again at once';

interface Integration {
  name: string;
  loop: string;
  run: (steps: number) => Promise<LoopRun>;
}

const AI_SDK_LOOPS: Record<AiSdkLoop, string> = {
  generateText: 'generateText tool loop (ai 6)',
  streamText: 'streamText tool loop (ai 6)',
};
const RUNNER_LOOP = 'Runner.run per turn (@openai/agents-core 0.14)';

function integrations(): Integration[] {
  const compacting = (inner: Session | AgentsStoreSession, mode?: 'lean') =>
    compactingSession({ session: inner, contextWindow: WINDOW, model: MODEL, ...(mode ? { mode } : {}) });
  const runner = (name: string, make: (times: StepTimes) => RunnerSession): Integration => ({
    name,
    loop: RUNNER_LOOP,
    run: (steps) => runnerLoop(steps, make),
  });
  const aiSdk = (loop: AiSdkLoop): Integration[] => [
    { name: 'compactionMiddleware()', loop: AI_SDK_LOOPS[loop], run: (steps) => middlewareLoop(loop, steps) },
    { name: 'compactionPrepareStep()', loop: AI_SDK_LOOPS[loop], run: (steps) => prepareStepLoop(loop, steps) },
    { name: REFERENCE, loop: AI_SDK_LOOPS[loop], run: (steps) => referenceLoop(loop, steps) },
  ];
  return [
    ...aiSdk('generateText'),
    ...aiSdk('streamText'),
    runner(REFERENCE, referenceSession),
    // Their MemorySession's addItems() inside ours is the storing a run without us does too: not our code's time.
    runner('compactingSession() over MemorySession', (times) => {
      const inner = new MemorySession();
      return {
        session: compacting(untimed(inner, ['addItems'], times)),
        timed: ['runCompaction', 'addItems'],
        items: () => inner.getItems(),
      };
    }),
    runner("compactingSession({ mode: 'lean' }) over MemorySession", (times) => {
      const inner = new MemorySession();
      return {
        session: compacting(untimed(inner, ['addItems'], times), 'lean'),
        timed: ['runCompaction', 'addItems'],
        items: () => inner.getItems(),
      };
    }),
    runner('AgentsStoreSession (MemorySessionStore)', () => {
      const session = new AgentsStoreSession({ store: new MemorySessionStore(), sessionId: 'bench' });
      return { session, timed: 'all', items: () => session.getItems() };
    }),
    runner('AgentsStoreSession (SqliteSessionStore, a file)', () => {
      const dir = mkdtempSync(join(tmpdir(), 'lousho-bench-sqlite-'));
      const store = new SqliteSessionStore({ path: join(dir, 'sessions.db') });
      const session = new AgentsStoreSession({ store, sessionId: 'bench' });
      return {
        session,
        timed: 'all',
        items: () => session.getItems(),
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }),
    runner('compactingSession() over AgentsStoreSession', () => {
      const inner = new AgentsStoreSession({ store: new MemorySessionStore(), sessionId: 'bench' });
      return { session: compacting(inner), timed: 'all', items: () => inner.getItems() };
    }),
  ];
}

export async function runFrameworks(options: { steps?: number; repetitions?: number } = {}): Promise<FrameworksReport> {
  const started = performance.now();
  const steps = options.steps ?? FRAMEWORK_STEPS;
  const repetitions = options.repetitions ?? Number(process.env.LOUSHO_BENCH_REPS ?? 3);
  const rows: FrameworkRow[] = [];
  // LOUSHO_BENCH_ONLY=<part of a name> runs only the integrations whose name holds it (a quick look at one).
  const only = process.env.LOUSHO_BENCH_ONLY;
  for (const integration of integrations().filter((i) => only === undefined || `${i.name} ${i.loop}`.includes(only))) {
    await integration.run(Math.min(steps, WARM_UP_STEPS));
    const runs: FrameworkRun[] = [];
    const again: FrameworkRun[] = [];
    for (let r = 0; r < repetitions; r++) {
      const loop = await integration.run(steps);
      const run = measured(loop);
      console.log(`[bench] frameworks: ${integration.name}, run ${r + 1}: ${JSON.stringify(run)}`);
      runs.push(run);
      if (loop.again !== undefined) again.push(measured({ times: loop.again, seen: undefined }));
    }
    rows.push({ name: integration.name, loop: integration.loop, steps, runs });
    if (again.length > 0) rows.push({ name: AGAIN, loop: integration.loop, steps, runs: again });
  }
  return { rows, repetitions, seconds: (performance.now() - started) / 1000 };
}

/** The median heap the reference's runs kept, or a dash for an integration of ours. */
function keptHeapCell(runs: readonly FrameworkRun[]): string {
  const heaps = runs.flatMap((x) => (x.heapBytes === undefined ? [] : [x.heapBytes]));
  return heaps.length === 0 ? '—' : `${formatInt(Math.round(median(heaps) / 1e6))} MB`;
}

export function renderFrameworksMarkdown(report: FrameworksReport): string {
  const lines = [
    '## Inside other frameworks',
    '',
    `Our compaction inside the other frameworks' own loops, ${formatInt(report.rows[0]?.steps ?? 0)} steps each, ` +
      `a ${formatInt(RESULT_CHARS)}-character tool result a step, a ${formatInt(WINDOW)}-token window. "Per step" is ` +
      "the time our code takes at a step (the middleware's transformParams and wrapGenerate, or wrapStream with the " +
      'reading of the parts it passes on; the prepareStep call; for compactingSession over their MemorySession its ' +
      "runCompaction and addItems, less the time their MemorySession's own addItems takes inside ours (the storing a " +
      'run without us does too); every Session method of AgentsStoreSession and of a compactingSession over it), median ' +
      'over the first and the last tenth of the steps, in CPU time (process.cpuUsage(): on a machine that other ' +
      'work loads, wall-clock time counts the waits for a core too). Each loop runs once short to warm up, then ' +
      `${report.repetitions} times; each cell is the median of the runs, with their range for the ratios. ` +
      '"Recount" is a plain gpt-tokenizer countTokens (o200k) of the text of the prompt our code saw at the last ' +
      'step (what the framework handed it), the least of 3 timings. "Kept heap" is, for the reference rows, the used heap after a full collection at the last step (in the Runner, inside its last turn; the loop\'s own, our code not in it). ' +
      `The "${REFERENCE}" rows time, in our place, a work that is the same at every step (gpt-tokenizer counting a ` +
      `fresh ${formatInt(RESULT_CHARS)}-character result, what our code counts at a step): its growth is what the ` +
      `loop's own heap does to a step's work. The "${AGAIN}" rows time the same work on another fresh result right ` +
      'after it at the same step: the gap between the two rows is what the first code to run at a step pays beyond ' +
      "the work itself, after the loop's own work since the last step. generateText keeps, with every step's result, a structuredClone() of " +
      'all the messages produced so far, a heap that grows with the square of the steps; streamText does not.',
    '',
    "| Integration | Loop | First tenth | Last tenth | Last / first | Growth / reference's growth | Last tenth / reference's | Recount at the last step | Recount / last tenth | Last / first, wall-clock | Kept heap |",
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const within: string[] = [];
  for (const r of report.rows) {
    const runs = r.runs;
    // Against the same loop's reference, run by run: its growth over the reference's, and its cost at the end over the reference's.
    const reference = report.rows.find((x) => x.loop === r.loop && x.name === REFERENCE);
    const pairs =
      reference === undefined || r === reference || r.name === AGAIN
        ? []
        : runs.map((x, i) => ({ x, ref: reference.runs[i] }));
    const growth = pairs.flatMap(({ x, ref }) =>
      ref === undefined ? [] : [x.lastCpuMs / x.firstCpuMs / (ref.lastCpuMs / ref.firstCpuMs)],
    );
    const cost = pairs.flatMap(({ x, ref }) => (ref === undefined ? [] : [x.lastCpuMs / ref.lastCpuMs]));
    const againstCells =
      growth.length === 0 ? '— | —' : `${formatSpread(growth, formatRatio)} | ${formatSpread(cost, formatRatio)}`;
    if (growth.length > 0 && median(growth) <= 2 && median(cost) <= 2) within.push(`${r.name} (${r.loop})`);
    const recounts = runs.flatMap((x) => (x.recount === undefined ? [] : [{ ...x.recount, last: x.lastCpuMs }]));
    const recountCells =
      recounts.length === 0
        ? '— | —'
        : `${formatMs(median(recounts.map((x) => x.cpuMs)))} (${formatInt(recounts[0]?.tokens ?? 0)} tokens) | ` +
          formatSpread(
            recounts.map((x) => x.cpuMs / x.last),
            formatRatio,
          );
    lines.push(
      `| ${r.name} | ${r.loop} | ${formatMs(median(runs.map((x) => x.firstCpuMs)))} | ` +
        `${formatMs(median(runs.map((x) => x.lastCpuMs)))} | ${formatSpread(
          runs.map((x) => x.lastCpuMs / x.firstCpuMs),
          formatRatio,
        )} | ${againstCells} | ${recountCells} | ` +
        `${formatSpread(
          runs.map((x) => x.lastWallMs / x.firstWallMs),
          formatRatio,
        )} | ${keptHeapCell(runs)} |`,
    );
  }
  const ours = report.rows.filter((r) => r.name !== REFERENCE && r.name !== AGAIN);
  lines.push(
    '',
    `Within 2× of the loop's reference in both its growth and its cost at the last tenth (medians over the runs): ${within.length} of ${ours.length}` +
      (within.length === ours.length
        ? '.'
        : `; the others: ${ours
            .filter((r) => !within.includes(`${r.name} (${r.loop})`))
            .map((r) => `${r.name} (${r.loop})`)
            .join(', ')}.`),
    '',
    `Run time: ${report.seconds.toFixed(0)} s.`,
  );
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await runFrameworks();
  console.log(renderFrameworksMarkdown(report));
}
