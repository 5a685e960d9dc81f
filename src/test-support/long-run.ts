/**
 * A long tool-heavy run in the real step loop (AgentExecutor, the compaction hook, the
 * preflight fit): at every step the scripted model writes a short note and reads one more
 * file, about 550 tokens a step. Used by the 2,000-step tests and by bench/long-run.ts.
 */
import { type CompactionHookOptions, createCompactionHook } from '../compaction/compaction-hook.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { AgentExecutor } from '../executor/agent-executor.js';
import { HookRegistry } from '../executor/hook-registry.js';
import type { Tool } from '../executor/tool.js';
import { ToolRegistry } from '../executor/tool-registry.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { prose } from './text.js';

export interface LongRunOptions {
  steps: number;
  contextWindow: number;
  /** The compaction hook's options (the window is added). */
  compaction: CompactionHookOptions;
  /** Sees every request the model receives, in order (a copy is not made). */
  onRequest?: (request: ModelRequest) => void;
  /** Characters of the note the model writes and of the file it reads at each step. */
  noteChars?: number;
  fileChars?: number;
  /**
   * Times the hook at each step (its preGenerate, postGenerate and recover, summed per step):
   * started before each call, the function it returns reads the time since in both clocks
   * (bench/step-clock.ts's startClock). Without it the hook is not timed.
   */
  clock?: HookClock;
}

/** A clock: starting it returns a function that reads how long it has been, in wall-clock and CPU time. */
export type HookClock = () => () => { wallMs: number; cpuMs: number };

/** The hook's time at each step, in both clocks (empty when the run had no clock). */
export interface HookTimes {
  wallMs: number[];
  cpuMs: number[];
}

/** What a long run did, step by step. */
export interface LongRunRecord {
  result: AgentResult;
  /** The size of every request the model received (estimateTokens). */
  received: number[];
  /** What the compaction hook took at each step (preGenerate, postGenerate and recover), when timed. */
  hook: HookTimes;
  /** The request's size after the hook, before the preflight fit, at each step. */
  afterHook: number[];
  /** compaction.done events that changed the transcript. */
  compactions: number;
  /** The steps whose request the executor's last-resort fit compacted, with the tokens it dropped. */
  fits: { step: number; before: number; after: number }[];
  events: AgentEvent[];
}

/** The scripted model of a long run: a note and a file read at each step, an answer after the last. */
function longRunModel(steps: number, noteChars: number, received: number[], onRequest?: (r: ModelRequest) => void) {
  let index = 0;
  const generate = async (request: ModelRequest): Promise<ModelResponse> => {
    received.push(estimateTokens(request));
    onRequest?.(request);
    const i = index++;
    const usage = { inputTokens: received[received.length - 1], outputTokens: 100, cachedInputTokens: undefined };
    if (i >= steps) return { text: 'All files read; the report follows.', toolCalls: [], finishReason: 'stop', usage };
    const call = { id: `call_${i}`, name: 'read', arguments: { path: `src/module${i % 17}/file${i}.ts` } };
    return { text: `Step ${i}: ${prose(10_000 + i, noteChars)}`, toolCalls: [call], finishReason: 'tool-calls', usage };
  };
  const provider: LLMProvider = {
    provider: 'scripted',
    modelId: 'long-run-model',
    generate,
    async *stream(request) {
      const response = await generate(request);
      if (response.text !== '') yield { type: 'text-delta', text: response.text };
      for (const toolCall of response.toolCalls) yield { type: 'tool-call', toolCall };
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
    },
  };
  return provider;
}

/**
 * A summarizer model that answers at once with a short summary and does no work of its
 * own (no token counting), so a timed hook measures the hook, not the stand-in model.
 */
export function instantSummarizer(
  text = 'The reviewer read the files so far, one a step; nothing needs fixing yet.',
): LLMProvider {
  const generate = async (): Promise<ModelResponse> => ({
    text,
    toolCalls: [],
    finishReason: 'stop',
    usage: { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined },
  });
  return {
    provider: 'scripted',
    modelId: 'summarizer',
    generate,
    async *stream() {
      yield { type: 'text-delta', text };
      yield { type: 'finish', finishReason: 'stop', usage: (await generate()).usage };
    },
  };
}

/**
 * The compaction hook, timed when there is a clock: the same hook, with the time of its
 * preGenerate, postGenerate and recover added up per step, and the request's size after
 * preGenerate recorded.
 */
function timed(inner: AgentHook, clock: HookClock | undefined, hook: HookTimes, afterHook: number[]): AgentHook {
  const time = async (step: number, call: () => unknown): Promise<void> => {
    if (clock === undefined) {
      await call();
      return;
    }
    const stop = clock();
    try {
      await call();
    } finally {
      const took = stop();
      hook.wallMs[step - 1] = (hook.wallMs[step - 1] ?? 0) + took.wallMs;
      hook.cpuMs[step - 1] = (hook.cpuMs[step - 1] ?? 0) + took.cpuMs;
    }
  };
  const recover = inner.recover;
  return {
    name: inner.name,
    // The compaction hook changes the transcript only through it: so does this wrapper.
    ...(inner.usesTranscript === true ? { usesTranscript: true } : {}),
    async preGenerate(ctx) {
      await time(ctx.run.step, () => inner.preGenerate?.(ctx));
      afterHook[ctx.run.step - 1] = ctx.run.budget.measure(ctx.request);
    },
    async postGenerate(ctx) {
      await time(ctx.run.step, () => inner.postGenerate?.(ctx));
    },
    ...(recover === undefined
      ? {}
      : {
          async recover(ctx) {
            let changed = false;
            await time(ctx.run.step, async () => {
              changed = await recover.call(inner, ctx);
            });
            return changed;
          },
        }),
  };
}

/** Runs `steps` steps of the scripted reader in AgentExecutor with the compaction hook. */
export async function runLongAgent(options: LongRunOptions): Promise<LongRunRecord> {
  const noteChars = options.noteChars ?? 400;
  const fileChars = options.fileChars ?? 1_700;
  const received: number[] = [];
  const hookTimes: HookTimes = { wallMs: [], cpuMs: [] };
  const afterHook: number[] = [];
  const events: AgentEvent[] = [];
  let reads = 0;
  const read: Tool<never, unknown> = {
    name: 'read',
    description: 'Read a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: (args: { path: string }) => `// ${args.path}\n${prose(++reads, fileChars)}`,
  };
  const hook = createCompactionHook({ ...options.compaction, contextWindow: options.contextWindow });
  const result = await AgentExecutor.execute({
    agent: {
      instructions: 'You are a code reviewer. Read every file of the repository, one at a time, then report.',
      limits: { maxSteps: options.steps + 1 },
    },
    input: 'Review the repository.',
    provider: longRunModel(options.steps, noteChars, received, options.onRequest),
    toolRegistry: new ToolRegistry([read as Tool<unknown, unknown>]),
    hooks: new HookRegistry([timed(hook, options.clock, hookTimes, afterHook)]),
    onEvent: (event) => {
      if (event.type !== 'text.delta' && event.type !== 'tool.start' && event.type !== 'tool.done') events.push(event);
    },
  });
  const compactions = events.filter((e) => e.type === 'compaction.done' && e.unchanged !== true).length;
  const fits: LongRunRecord['fits'] = [];
  for (const e of events) {
    if (e.type !== 'recovery.done' || (e.kind !== 'oversized-request' && e.kind !== 'oversized-results')) continue;
    fits.push({ step: e.step, before: afterHook[e.step - 1] ?? 0, after: received[e.step - 1] ?? 0 });
  }
  return { result, received, hook: hookTimes, afterHook, compactions, fits, events };
}
