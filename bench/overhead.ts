/**
 * Overhead of the compaction hook per step on a long run, against sizing the whole
 * transcript again at every step. A scripted 1,000-step run appends one assistant tool call
 * and one tool result per step (real tool calls and outputs from the corpus, cycled, with
 * the step number added so no two messages are the same) until the transcript is past 1M
 * tokens. The hook's preGenerate is timed at every step, and the baselines of
 * ./overhead-baselines.ts at a sample of steps, in CPU time with wall-clock time beside
 * (./step-clock.ts). The whole run is repeated LOUSHO_BENCH_REPS times (3 by default) after a
 * warm-up; each statistic is taken on each run, and the report gives the median of the runs
 * with their range. At the sampled steps the size the hook measured is checked against
 * estimateTokens from scratch of the same request.
 *
 * Run: `npm run bench -- overhead` or `npx tsx bench/overhead.ts`
 */
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { BaseMessage } from '@langchain/core/messages';
import { createCompactionHook } from '../src/compaction/compaction-hook.js';
import type { AgentHook } from '../src/contracts/agent-hook.js';
import type { LLMProvider } from '../src/contracts/llm-provider.js';
import type { ModelRequest } from '../src/contracts/model-request.js';
import { RunState } from '../src/executor/run-state.js';
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText, estimateTokens } from '../src/models/estimate-tokens.js';
import { BASH_TOOL, readCorpus } from './corpus.js';
import { type BaselineCounts, baselines, mastraText, toLangChain } from './overhead-baselines.js';
import { renderOverheadMarkdown } from './overhead-report.js';
import { median } from './stats.js';
import { StepTimes, type Took } from './step-clock.js';

export { renderOverheadMarkdown } from './overhead-report.js';

export interface OverheadOptions {
  /** Steps of the scripted run; each appends an assistant tool call and its result. Default 1,000. */
  steps?: number;
  /** The baselines are timed at every this-many-th step, and at the last step. Default 50. */
  sampleEvery?: number;
  /** maxTokens of LangChain's trimMessages. Default 128,000. */
  trimMaxTokens?: number;
  /** Measured runs. Default LOUSHO_BENCH_REPS, else 3. */
  repetitions?: number;
  /** A warm-up run before the measured ones (default true); a test of the sizes alone can leave it out. */
  warmUp?: boolean;
  /** Progress lines go here (e.g. console.error); silent by default. */
  log?: (line: string) => void;
}

/** One measured run: the hook at every step, the baselines at the sampled steps, in both clocks. */
export interface OverheadRun {
  hook: { wallMs: number[]; cpuMs: number[] };
  /** Per baseline, its time at each sampled step. */
  baselines: Took[][];
  /** The sampled steps where the size the hook measured differed from estimateTokens from scratch of the same request. */
  mismatches: number;
  /** The largest |hook's size - from scratch| at a sampled step, in tokens. */
  largestDifference: number;
  /** What the baselines counted at the last step. */
  counts: BaselineCounts;
  /** js-tiktoken's rate in (c), tokens per second of CPU time over all its sampled steps. */
  tiktokenTokensPerSecond: number;
}

export interface OverheadReport {
  steps: number;
  sampleEvery: number;
  /** The steps at which the baselines were timed. */
  sampledSteps: number[];
  repetitions: number;
  trimMaxTokens: number;
  /** Distinct (tool call, tool output) pairs of the corpus that were cycled. */
  corpusPairs: number;
  finalMessages: number;
  finalChars: number;
  /** The size the hook measured at each step (model gpt-4.1, the bash tool), the same in every run. */
  tokensAt: number[];
  /** What the bash tool's definition adds to that size. */
  toolTokens: number;
  runs: OverheadRun[];
  node: string;
  cpus: number;
  runSeconds: number;
}

interface Pair {
  arguments: unknown;
  output: string;
}

/** Every (bash call, tool output) pair of the corpus, in file order. */
function corpusPairs(): { head: Message[]; pairs: Pair[] } {
  const corpus = readCorpus();
  if (corpus.length === 0) {
    throw new Error('The corpus was not found: set LOUSHO_CORPUS or put it at ../shared/corpus/trajectories-raw.');
  }
  const pairs: Pair[] = [];
  for (const trajectory of corpus) {
    const messages = trajectory.messages;
    for (let i = 0; i + 1 < messages.length; i++) {
      const call = messages[i];
      const result = messages[i + 1];
      if (call?.role !== 'assistant' || result?.role !== 'tool') continue;
      const toolCall = call.toolCalls?.[0];
      if (toolCall === undefined || toolCall.id !== result.toolCallId) continue;
      pairs.push({ arguments: toolCall.arguments, output: contentText(result.content) });
    }
  }
  const first = corpus[0]?.messages ?? [];
  return { head: first.slice(0, 2), pairs };
}

function withStep(args: unknown, step: number): unknown {
  if (typeof args === 'object' && args !== null && 'command' in args && typeof args.command === 'string') {
    return { ...args, command: `${args.command} # step ${step}` };
  }
  return `${argumentsText(args)} # step ${step}`;
}

/** The two messages step `step` appends. */
function stepMessages(pair: Pair, step: number, prefix = 'call_bench'): [Message, Message] {
  const id = `${prefix}_${step}`;
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'bash', arguments: withStep(pair.arguments, step) }] },
    { role: 'tool', toolCallId: id, toolName: 'bash', content: `${pair.output}\n[step ${step}]` },
  ];
}

const MODEL = 'gpt-4.1';
/** What the hook is handed besides the messages, and what baseline (a) sizes with them. */
const REQUEST: Omit<ModelRequest, 'messages'> = { model: MODEL, tools: [BASH_TOOL] };

function stubProvider(): LLMProvider {
  const fail = () => new Error('The overhead benchmark never calls the model.');
  return {
    provider: 'bench',
    modelId: MODEL,
    generate: () => Promise.reject(fail()),
    stream: () => {
      throw fail();
    },
  };
}

/**
 * The hook on a real RunState whose step the benchmark moves on. `step()` runs preGenerate on
 * the transcript as it stands, timed when `times` is given, and returns the size the hook
 * itself measured: what its call of the run's RequestBudget.measure() returned.
 */
function hookRun(messages: Message[], times?: StepTimes) {
  const run = new RunState({ messages, provider: stubProvider(), abortSignal: undefined, emit: undefined });
  const hook: AgentHook = createCompactionHook({ contextWindow: 2_000_000 });
  const measure = run.budget.measure;
  let measured = Number.NaN;
  run.budget.measure = (request) => {
    measured = measure(request);
    return measured;
  };
  return async (step: number): Promise<number> => {
    const preGenerate = hook.preGenerate;
    if (preGenerate === undefined) throw new Error('The compaction hook has no preGenerate.');
    run.step = step;
    const request: ModelRequest = { ...REQUEST, messages };
    measured = Number.NaN;
    times?.next();
    if (times === undefined) await preGenerate({ request, run });
    else await times.time(() => preGenerate({ request, run }));
    return measured;
  };
}

/** Warm-up: load both vocabularies and let the JIT settle, on messages the timed runs never see. */
async function warmUp(head: Message[], pairs: Pair[], bench: ReturnType<typeof baselines>): Promise<void> {
  const warm: Message[] = head.map((m) => ({ ...m }) as Message);
  const step = hookRun(warm);
  for (let s = 1; s <= 60; s++) {
    warm.push(...stepMessages(pairs[(s * 7) % pairs.length] as Pair, s, 'call_warm'));
    await step(s);
    if (s % 20 === 0) {
      bench.fromScratch(warm);
      await bench.langChain(warm.map(toLangChain));
      bench.tiktokenRecount(warm);
      bench.gptTokenizerRecount(warm);
    }
  }
}

/** One measured run: the hook at every step, then the baselines on the same prefixes (the run only appends). */
async function measuredRun(
  head: Message[],
  pairs: Pair[],
  steps: number,
  sampledSteps: number[],
  bench: ReturnType<typeof baselines>,
): Promise<{ run: OverheadRun; messages: Message[]; tokensAt: number[] }> {
  const messages: Message[] = head.map((m) => ({ ...m }) as Message);
  const langChainMessages: BaseMessage[] = messages.map(toLangChain);
  const times = new StepTimes();
  const step = hookRun(messages, times);
  const lengthAt: number[] = [];
  const tokensAt: number[] = [];
  for (let s = 1; s <= steps; s++) {
    const added = stepMessages(pairs[(s - 1) % pairs.length] as Pair, s);
    messages.push(...added);
    langChainMessages.push(...added.map(toLangChain));
    tokensAt[s] = await step(s);
    lengthAt[s] = messages.length;
  }
  // The baselines run after the hook's run, so their garbage never lands in the hook's timings.
  const timings: Took[][] = [[], [], [], []];
  let mismatches = 0;
  let largestDifference = 0;
  let tiktokenTokens = 0;
  let tiktokenCpuMs = 0;
  for (const s of sampledSteps) {
    const length = lengthAt[s] as number;
    const prefix = messages.slice(0, length);
    timings[0]?.push(bench.fromScratch(prefix));
    timings[1]?.push(await bench.langChain(langChainMessages.slice(0, length)));
    const recount = bench.tiktokenRecount(prefix);
    timings[2]?.push(recount);
    timings[3]?.push(bench.gptTokenizerRecount(prefix));
    const counts = bench.last();
    tiktokenTokens += counts.tiktokenTokens;
    tiktokenCpuMs += recount.cpuMs;
    const difference = Math.abs(counts.scratchTokens - (tokensAt[s] as number));
    if (difference !== 0 || Number.isNaN(difference)) mismatches++;
    largestDifference = Math.max(largestDifference, Number.isNaN(difference) ? Number.POSITIVE_INFINITY : difference);
  }
  const run: OverheadRun = {
    hook: { wallMs: times.wallMs, cpuMs: times.cpuMs },
    baselines: timings,
    mismatches,
    largestDifference,
    counts: bench.last(),
    tiktokenTokensPerSecond: tiktokenTokens / (tiktokenCpuMs / 1000),
  };
  return { run, messages, tokensAt };
}

/** Runs the benchmark: about a minute of CPU time per repetition on two cores with the defaults. */
export async function runOverhead(options: OverheadOptions = {}): Promise<OverheadReport> {
  const started = performance.now();
  const steps = options.steps ?? 1_000;
  const sampleEvery = options.sampleEvery ?? 50;
  const trimMaxTokens = options.trimMaxTokens ?? 128_000;
  const repetitions = options.repetitions ?? Number(process.env.LOUSHO_BENCH_REPS ?? 3);
  const log = options.log ?? (() => {});
  const { head, pairs } = corpusPairs();
  if (pairs.length === 0) throw new Error('The corpus has no tool call with a result.');
  const bench = baselines(trimMaxTokens, REQUEST);
  if (options.warmUp !== false) await warmUp(head, pairs, bench);
  log(`overhead: warmed up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const sampledSteps: number[] = [];
  for (let step = sampleEvery; step <= steps; step += sampleEvery) sampledSteps.push(step);
  if (sampledSteps[sampledSteps.length - 1] !== steps) sampledSteps.push(steps);
  const runs: OverheadRun[] = [];
  let final: { messages: Message[]; tokensAt: number[] } | undefined;
  for (let r = 0; r < repetitions; r++) {
    const { run, messages, tokensAt } = await measuredRun(head, pairs, steps, sampledSteps, bench);
    if (final !== undefined && tokensAt.join() !== final.tokensAt.join()) {
      throw new Error('A repetition of the overhead run measured different sizes.');
    }
    final = { messages, tokensAt };
    runs.push(run);
    const hookMedian = median(run.hook.cpuMs);
    log(
      `overhead: run ${r + 1} in ${((performance.now() - started) / 1000).toFixed(1)} s, hook CPU median ${hookMedian}`,
    );
  }
  const { messages, tokensAt } = final as { messages: Message[]; tokensAt: number[] };
  const toolTokens =
    estimateTokens({ ...REQUEST, messages: messages.slice(0, 4) }) -
    estimateTokens({ model: MODEL, messages: messages.slice(0, 4) });
  return {
    steps,
    sampleEvery,
    sampledSteps,
    repetitions,
    trimMaxTokens,
    corpusPairs: pairs.length,
    finalMessages: messages.length,
    finalChars: messages.reduce((n, m) => n + mastraText(m).length - m.role.length, 0),
    tokensAt,
    toolTokens,
    runs,
    node: process.version,
    cpus: cpus().length,
    runSeconds: (performance.now() - started) / 1000,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runOverhead({ log: (line) => console.error(line) })
    .then((report) => console.log(renderOverheadMarkdown(report)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
