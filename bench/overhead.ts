/**
 * Overhead of the compaction hook per step on a long run, against counting the whole
 * transcript again at every step. A scripted 1,000-step run appends one assistant tool
 * call and one tool result per step (real tool calls and outputs from the corpus, cycled,
 * with the step number added so no two messages are the same) until the transcript is
 * past 1M tokens. The hook's preGenerate is timed at every step; three baselines at a
 * sample of steps:
 *   (a) estimateTokens from scratch (same tokenizer, fresh message objects, so no cache);
 *   (b) LangChain.js trimMessages (strategy 'last', maxTokens 128,000) with a js-tiktoken
 *       o200k token counter;
 *   (c) a recount of every message with js-tiktoken o200k_base, as Mastra's TokenLimiter does;
 *   (d) a plain recount of every message's text with gpt-tokenizer's countTokens (o200k), no
 *       per-message cache: what a library without its own estimator would do.
 * Every ratio is stated with the run's length (steps and final tokens): the hook's cost
 * follows what is new and a recount's follows the transcript, so the ratio grows with it.
 *
 * Run: npx tsx bench/overhead.ts
 */
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { createCompactionHook } from '../src/compaction/compaction-hook.js';
import type { AgentHook, RunContext } from '../src/contracts/agent-hook.js';
import type { LLMProvider } from '../src/contracts/llm-provider.js';
import type { ModelRequest } from '../src/contracts/model-request.js';
import { RunState } from '../src/executor/run-state.js';
import { contentText } from '../src/messages/content.js';
import type { Message } from '../src/messages/types.js';
import { argumentsText, estimateTokens } from '../src/models/estimate-tokens.js';
import { BASH_TOOL, readCorpus } from './corpus.js';
import { formatInt, formatMs, formatRatio, median, percentile } from './stats.js';

export interface OverheadOptions {
  /** Steps of the scripted run; each appends an assistant tool call and its result. Default 1,000. */
  steps?: number;
  /** The baselines are timed at every this-many-th step, and at the last step. Default 25. */
  sampleEvery?: number;
  /** maxTokens of LangChain's trimMessages. Default 128,000. */
  trimMaxTokens?: number;
  /** Progress lines go here (e.g. console.error); silent by default. */
  log?: (line: string) => void;
}

/** Per-step times of one method, in milliseconds. */
export interface StepTimes {
  /** How many steps were timed. */
  samples: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  /** The time at the run's last step. */
  lastStepMs: number;
}

/** A baseline's times and how they compare with the hook's (baseline / hook). */
export interface BaselineTimes extends StepTimes {
  label: string;
  /** What exactly is timed. */
  method: string;
  /** Baseline median over the hook's median over all steps. */
  medianRatio: number;
  /** Baseline p99 over the hook's p99 over all steps. */
  p99Ratio: number;
  /** Baseline time at the last step over the hook's time at the last step. */
  lastStepRatio: number;
}

export interface OverheadReport {
  steps: number;
  sampleEvery: number;
  /** The steps at which the baselines were timed. */
  sampledSteps: number[];
  /** Distinct (tool call, tool output) pairs of the corpus that were cycled. */
  corpusPairs: number;
  finalMessages: number;
  finalChars: number;
  /** estimateTokens of the final request (model gpt-4.1, the bash tool): what the hook measured at the last step. */
  finalTokens: number;
  /** js-tiktoken o200k count of the final transcript, as baseline (c) counts it. */
  finalTiktokenTokens: number;
  /** gpt-tokenizer's count of the final transcript's text, as baseline (d) counts it. */
  finalGptTokenizerTokens: number;
  /** The hook at every step. */
  hook: StepTimes;
  /** The hook at the steps where the baselines were timed. */
  hookAtSampledSteps: StepTimes;
  /** Median hook time over the first and the last 10% of the steps: flat when the cost follows what is new. */
  hookFirstTenthMedianMs: number;
  hookLastTenthMedianMs: number;
  baselines: BaselineTimes[];
  /**
   * How the ratios grow with the run: at a few sampled steps, the transcript's tokens there
   * and each baseline's time at that step over the hook's median over the 25 steps up to it.
   */
  byLength: { step: number; tokens: number; ratios: number[] }[];
  /** Sampled steps where estimateTokens from scratch differed from what the hook measured (0 expected). */
  estimateMismatches: number;
  /** What trimMessages did at the last step. */
  trim: {
    maxTokens: number;
    keptMessages: number;
    counterCalls: number;
    /** Sum of the token counts the counter returned at the last step: what a counter without a memo would encode. */
    tokensHandedToCounter: number;
    /** js-tiktoken's rate in (c), tokens per second over all its sampled steps. */
    tiktokenTokensPerSecond: number;
    /** That many tokens at that rate, in seconds: extrapolated, not measured. */
    unmemoizedSecondsEstimate: number;
  };
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

function toLangChain(message: Message): BaseMessage {
  const content = contentText(message.content);
  switch (message.role) {
    case 'system':
      return new SystemMessage(content);
    case 'user':
      return new HumanMessage(content);
    case 'tool':
      return new ToolMessage({ content, tool_call_id: message.toolCallId });
    default:
      return new AIMessage({
        content,
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          name: call.name,
          args:
            typeof call.arguments === 'object' && call.arguments !== null && !Array.isArray(call.arguments)
              ? (call.arguments as Record<string, unknown>)
              : { input: call.arguments },
          type: 'tool_call' as const,
        })),
      });
  }
}

/** The text of a LangChain message a token counter encodes: its content and its tool calls' names and arguments. */
function langChainText(message: BaseMessage): string {
  let text = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  if (AIMessage.isInstance(message)) {
    for (const call of message.tool_calls ?? []) text += call.name + JSON.stringify(call.args);
  }
  return text;
}

/** The text Mastra's TokenLimiter.countTokens encodes for a message: role, content, tool name and JSON arguments. */
function mastraText(message: Message): string {
  let text = message.role + contentText(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) text += call.name + JSON.stringify(call.arguments);
  }
  return text;
}

/** The text a plain recount counts for a message: its content and its tool calls' names and arguments. */
function plainText(message: Message): string {
  let text = contentText(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) text += call.name + argumentsText(call.arguments);
  }
  return text;
}

/** Mastra's per-message framing (TOKENS_PER_MESSAGE). */
const MASTRA_MESSAGE_TOKENS = 3.8;

function stubProvider(): LLMProvider {
  const fail = () => new Error('The overhead benchmark never calls the model.');
  return {
    provider: 'bench',
    modelId: 'gpt-4.1',
    generate: () => Promise.reject(fail()),
    stream: () => {
      throw fail();
    },
  };
}

/** The run's own state (a real RunState), whose step the benchmark moves on. */
function runContext(messages: Message[]): { run: RunState; setStep(step: number): void } {
  const run = new RunState({ messages, provider: stubProvider(), abortSignal: undefined, emit: undefined });
  return {
    run,
    setStep: (n) => {
      run.step = n;
    },
  };
}

function summarize(times: readonly number[]): StepTimes {
  return {
    samples: times.length,
    medianMs: median(times),
    p99Ms: percentile(times, 0.99),
    maxMs: Math.max(...times),
    lastStepMs: times[times.length - 1] ?? Number.NaN,
  };
}

const MODEL = 'gpt-4.1';

/** Times one preGenerate call. */
async function timeHook(hook: AgentHook, run: RunContext, messages: Message[]): Promise<number> {
  const request: ModelRequest = { model: MODEL, messages, tools: [BASH_TOOL] };
  const preGenerate = hook.preGenerate;
  if (preGenerate === undefined) throw new Error('The compaction hook has no preGenerate.');
  const t = performance.now();
  await preGenerate({ request, run });
  return performance.now() - t;
}

/** The baselines, each a function of the transcript prefix that returns its time in ms. */
function baselines(encoder: Tiktoken, trimMaxTokens: number) {
  const encode = (text: string) => encoder.encode(text, [], []).length;
  let lastTrim = { keptMessages: 0, counterCalls: 0, tokensHanded: 0 };
  let lastScratchTokens = 0;
  let lastTiktokenTokens = 0;
  let lastGptTokenizerTokens = 0;

  const fromScratch = (messages: readonly Message[]): number => {
    const fresh = messages.map((m) => ({ ...m }) as Message);
    const t = performance.now();
    lastScratchTokens = estimateTokens({ model: MODEL, messages: fresh, tools: [BASH_TOOL] });
    return performance.now() - t;
  };

  const langChain = async (messages: BaseMessage[]): Promise<number> => {
    // A memo per call: trimMessages copies the messages on every call, so nothing could carry over between steps anyway.
    const memo = new WeakMap<BaseMessage, number>();
    let counterCalls = 0;
    let tokensHanded = 0;
    const tokenCounter = (list: BaseMessage[]): number => {
      counterCalls++;
      let total = 0;
      for (const message of list) {
        let tokens = memo.get(message);
        if (tokens === undefined) {
          tokens = encode(langChainText(message));
          memo.set(message, tokens);
        }
        total += tokens;
      }
      tokensHanded += total;
      return total;
    };
    const t = performance.now();
    const kept = await trimMessages(messages, { maxTokens: trimMaxTokens, strategy: 'last', tokenCounter });
    const ms = performance.now() - t;
    lastTrim = { keptMessages: kept.length, counterCalls, tokensHanded };
    return ms;
  };

  const tiktokenRecount = (messages: readonly Message[]): number => {
    const t = performance.now();
    let total = 0;
    for (const message of messages) total += encode(mastraText(message)) + MASTRA_MESSAGE_TOKENS;
    const ms = performance.now() - t;
    lastTiktokenTokens = total;
    return ms;
  };

  const gptTokenizerRecount = (messages: readonly Message[]): number => {
    const t = performance.now();
    let total = 0;
    for (const message of messages) total += gptTokenizerCount(plainText(message));
    const ms = performance.now() - t;
    lastGptTokenizerTokens = total;
    return ms;
  };

  return {
    fromScratch,
    langChain,
    tiktokenRecount,
    gptTokenizerRecount,
    last: () => ({
      trim: lastTrim,
      scratchTokens: lastScratchTokens,
      tiktokenTokens: lastTiktokenTokens,
      gptTokenizerTokens: lastGptTokenizerTokens,
    }),
  };
}

/** Runs the benchmark: about a minute on two cores with the defaults. */
export async function runOverhead(options: OverheadOptions = {}): Promise<OverheadReport> {
  const started = performance.now();
  const steps = options.steps ?? 1_000;
  const sampleEvery = options.sampleEvery ?? 25;
  const trimMaxTokens = options.trimMaxTokens ?? 128_000;
  const log = options.log ?? (() => {});
  const { head, pairs } = corpusPairs();
  if (pairs.length === 0) throw new Error('The corpus has no tool call with a result.');
  const encoder = new Tiktoken(o200kBase);
  const bench = baselines(encoder, trimMaxTokens);

  // Warm-up: load both vocabularies and let the JIT settle, on messages the timed run never sees.
  {
    const warm: Message[] = head.map((m) => ({ ...m }) as Message);
    const { run, setStep } = runContext(warm);
    const hook = createCompactionHook({ contextWindow: 2_000_000 });
    for (let s = 1; s <= 60; s++) {
      warm.push(...stepMessages(pairs[(s * 7) % pairs.length] as Pair, s, 'call_warm'));
      setStep(s);
      await timeHook(hook, run, warm);
      if (s % 20 === 0) {
        bench.fromScratch(warm);
        await bench.langChain(warm.map(toLangChain));
        bench.tiktokenRecount(warm);
        bench.gptTokenizerRecount(warm);
      }
    }
  }
  log(`overhead: warmed up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Pass 1: the run, the hook timed at every step. The baselines run afterwards on the same
  // prefixes (the run only appends), so their garbage never lands in the hook's timings.
  const messages: Message[] = head.map((m) => ({ ...m }) as Message);
  const langChainMessages: BaseMessage[] = messages.map(toLangChain);
  const { run, setStep } = runContext(messages);
  const hook = createCompactionHook({ contextWindow: 2_000_000 });
  const hookTimes: number[] = [];
  const lengthAt: number[] = [];
  const tokensAt: number[] = [];
  for (let step = 1; step <= steps; step++) {
    const added = stepMessages(pairs[(step - 1) % pairs.length] as Pair, step);
    messages.push(...added);
    langChainMessages.push(...added.map(toLangChain));
    setStep(step);
    hookTimes.push(await timeHook(hook, run, messages));
    lengthAt[step] = messages.length;
    tokensAt[step] = run.budget.measure({ model: run.provider.modelId, messages });
  }
  log(`overhead: ${steps} hook steps in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Pass 2: the baselines at the sampled steps.
  const sampledSteps: number[] = [];
  for (let step = sampleEvery; step <= steps; step += sampleEvery) sampledSteps.push(step);
  if (sampledSteps[sampledSteps.length - 1] !== steps) sampledSteps.push(steps);
  const scratchTimes: number[] = [];
  const trimTimes: number[] = [];
  const recountTimes: number[] = [];
  const gptRecountTimes: number[] = [];
  let recountTokens = 0;
  let estimateMismatches = 0;
  for (const step of sampledSteps) {
    const length = lengthAt[step] as number;
    const prefix = messages.slice(0, length);
    scratchTimes.push(bench.fromScratch(prefix));
    trimTimes.push(await bench.langChain(langChainMessages.slice(0, length)));
    recountTimes.push(bench.tiktokenRecount(prefix));
    recountTokens += bench.last().tiktokenTokens;
    gptRecountTimes.push(bench.gptTokenizerRecount(prefix));
    if (bench.last().scratchTokens !== tokensAt[step]) estimateMismatches++;
    if (step % (sampleEvery * 8) === 0) {
      log(`overhead: baselines at step ${step} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
  const last = bench.last();

  const hookSummary = summarize(hookTimes);
  const compare = (label: string, method: string, times: number[]): BaselineTimes => {
    const s = summarize(times);
    return {
      label,
      method,
      ...s,
      medianRatio: s.medianMs / hookSummary.medianMs,
      p99Ratio: s.p99Ms / hookSummary.p99Ms,
      lastStepRatio: s.lastStepMs / hookSummary.lastStepMs,
    };
  };
  const recount = compare(
    '(c) js-tiktoken recount of every message (Mastra TokenLimiter)',
    'js-tiktoken o200k_base encode() of role + content (+ tool name and JSON arguments) of every message, no cache',
    recountTimes,
  );
  const tenth = Math.max(1, Math.floor(steps / 10));
  const baselineTimes = [scratchTimes, trimTimes, recountTimes, gptRecountTimes];
  const byLength = [steps / 10, steps / 4, steps / 2, steps]
    .map((target) => sampledSteps.find((s) => s >= target))
    .filter((s, i, all): s is number => s !== undefined && all.indexOf(s) === i)
    .map((step) => {
      const at = sampledSteps.indexOf(step);
      const hookThere = median(hookTimes.slice(Math.max(0, step - 25), step));
      return {
        step,
        tokens: tokensAt[step] as number,
        ratios: baselineTimes.map((t) => (t[at] as number) / hookThere),
      };
    });
  // js-tiktoken's rate over every sampled recount of (c), in tokens per second.
  const tiktokenRate = recountTokens / (recountTimes.reduce((a, b) => a + b, 0) / 1000);
  return {
    steps,
    sampleEvery,
    sampledSteps,
    corpusPairs: pairs.length,
    finalMessages: messages.length,
    finalChars: messages.reduce((n, m) => n + mastraText(m).length - m.role.length, 0),
    finalTokens: tokensAt[steps] as number,
    finalTiktokenTokens: Math.round(last.tiktokenTokens),
    finalGptTokenizerTokens: last.gptTokenizerTokens,
    hook: hookSummary,
    hookAtSampledSteps: summarize(sampledSteps.map((s) => hookTimes[s - 1] as number)),
    hookFirstTenthMedianMs: median(hookTimes.slice(0, tenth)),
    hookLastTenthMedianMs: median(hookTimes.slice(-tenth)),
    baselines: [
      compare(
        '(a) estimateTokens from scratch',
        'estimateTokens() of the whole request on fresh copies of the messages (no per-message cache); the same tokenizer as the hook',
        scratchTimes,
      ),
      compare(
        `(b) LangChain.js trimMessages`,
        `trimMessages(messages, { maxTokens: ${formatInt(trimMaxTokens)}, strategy: 'last' }) with a tokenCounter that encodes each message's content and tool calls with js-tiktoken o200k_base, memoized per message within one call`,
        trimTimes,
      ),
      recount,
      compare(
        '(d) gpt-tokenizer recount of every message',
        "gpt-tokenizer 4.0.0 countTokens (o200k) of each message's content and tool-call names and arguments, summed, every step, with no per-message cache (gpt-tokenizer's own merge cache on, as by default)",
        gptRecountTimes,
      ),
    ],
    byLength,
    estimateMismatches,
    trim: {
      maxTokens: trimMaxTokens,
      keptMessages: last.trim.keptMessages,
      counterCalls: last.trim.counterCalls,
      tokensHandedToCounter: last.trim.tokensHanded,
      tiktokenTokensPerSecond: tiktokenRate,
      unmemoizedSecondsEstimate: last.trim.tokensHanded / tiktokenRate,
    },
    node: process.version,
    cpus: cpus().length,
    runSeconds: (performance.now() - started) / 1000,
  };
}

/** The report as a markdown section. */
export function renderOverheadMarkdown(r: OverheadReport): string {
  const lines: string[] = [];
  lines.push('## Overhead of the compaction hook per step');
  lines.push('');
  lines.push(
    `A scripted run of ${formatInt(r.steps)} steps; each step appends one assistant tool call and its tool result ` +
      `(real bash calls and outputs from the corpus, ${formatInt(r.corpusPairs)} pairs cycled, the step number added to each). ` +
      `The final transcript has ${formatInt(r.finalMessages)} messages, ${formatInt(r.finalChars)} characters and ` +
      `**${formatInt(r.finalTokens)} tokens** by estimateTokens (${formatInt(r.finalTiktokenTokens)} by the js-tiktoken recount of (c), ` +
      `${formatInt(r.finalGptTokenizerTokens)} by the gpt-tokenizer recount of (d), which counts no framing).`,
  );
  lines.push('');
  lines.push(
    `The hook is \`createCompactionHook({ contextWindow: 2_000_000 })\` (threshold 1.8M tokens, so it never compacts and the ` +
      `time is the measuring alone); its \`preGenerate\` gets \`{ model: 'gpt-4.1', messages, tools: [BASH_TOOL] }\` and is timed ` +
      `at every step. The baselines are expensive, so they are timed at every ${r.sampleEvery}th step and at the last step ` +
      `(${r.sampledSteps.length} steps), on the same transcript prefixes, after the hook's run. ` +
      `Ratios are baseline / hook, against the hook's median and p99 over all ${formatInt(r.steps)} steps, for this run's ` +
      `length: the hook's cost follows what is new and a recount's the whole transcript, so the ratios grow with the run ` +
      '(see the table after this one). ' +
      `With ${r.sampledSteps.length} samples a baseline's p99 is its maximum, reached at or near the last (largest) step.`,
  );
  lines.push('');
  lines.push(
    '| method | steps timed | median / step | p99 / step | at the last step | median ratio | p99 ratio | last-step ratio | run |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const run = `${formatInt(r.steps)} steps, ${formatInt(r.finalTokens)} tokens at the end`;
  const row = (label: string, s: StepTimes, ratios?: BaselineTimes) =>
    `| ${label} | ${s.samples} | ${formatMs(s.medianMs)} | ${formatMs(s.p99Ms)} | ${formatMs(s.lastStepMs)} | ` +
    `${ratios ? formatRatio(ratios.medianRatio) : '1x'} | ${ratios ? formatRatio(ratios.p99Ratio) : '1x'} | ` +
    `${ratios ? formatRatio(ratios.lastStepRatio) : '1x'} | ${run} |`;
  lines.push(row('**compaction hook** (preGenerate), every step', r.hook));
  lines.push(
    `| compaction hook, at the sampled steps only | ${r.hookAtSampledSteps.samples} | ${formatMs(r.hookAtSampledSteps.medianMs)} | ${formatMs(r.hookAtSampledSteps.p99Ms)} | ${formatMs(r.hookAtSampledSteps.lastStepMs)} | | | | ${run} |`,
  );
  for (const b of r.baselines) lines.push(row(b.label, b, b));
  lines.push('');
  lines.push(
    "The ratio at a given run length: each baseline's time at that step over the hook's median over the 25 steps up to it.",
  );
  lines.push('');
  lines.push(`| step | transcript tokens | ${r.baselines.map((b) => b.label.split(' ')[0]).join(' | ')} |`);
  lines.push(`|---:|---:|${r.baselines.map(() => '---:').join('|')}|`);
  for (const b of r.byLength) {
    lines.push(`| ${formatInt(b.step)} | ${formatInt(b.tokens)} | ${b.ratios.map(formatRatio).join(' | ')} |`);
  }
  lines.push('');
  lines.push('What each baseline times:');
  lines.push('');
  for (const b of r.baselines) lines.push(`- ${b.label}: ${b.method}.`);
  lines.push('');
  lines.push(
    `The hook's median is ${formatMs(r.hookFirstTenthMedianMs)} over the first tenth of the steps and ` +
      `${formatMs(r.hookLastTenthMedianMs)} over the last tenth: its cost follows the two new messages, not the ` +
      `transcript's length (its max over all steps was ${formatMs(r.hook.maxMs)}). ` +
      `At ${r.estimateMismatches === 0 ? 'every' : `all but ${r.estimateMismatches} of the`} sampled step${r.estimateMismatches === 0 ? '' : 's'}, ` +
      `the hook's measured request size equals estimateTokens from scratch.`,
  );
  lines.push('');
  lines.push(
    `trimMessages at the last step kept ${formatInt(r.trim.keptMessages)} messages and called its tokenCounter ` +
      `${formatInt(r.trim.counterCalls)} times (strategy 'last' counts the whole list, then the list without its oldest message, and so on, ` +
      `until it fits). The counts it was handed sum to ${formatInt(r.trim.tokensHandedToCounter)} tokens: a counter without a ` +
      `memo would encode all of them, about ${formatInt(r.trim.unmemoizedSecondsEstimate)} s at the ` +
      `${formatInt(r.trim.tiktokenTokensPerSecond)} tokens/s js-tiktoken reached in (c) (extrapolated, not measured).` +
      " Mastra's TokenLimiter walks newest-first and stops at its limit, so with a limit below " +
      'the transcript it encodes only up to that limit; (c) counts every message, which is what a compaction trigger needs.',
  );
  lines.push('');
  lines.push(
    `Node ${r.node}, ${r.cpus} CPUs; performance.now(); warm-up first. Run time: ${r.runSeconds.toFixed(1)} s.`,
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runOverhead({ log: (line) => console.error(line) })
    .then((report) => console.log(renderOverheadMarkdown(report)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
