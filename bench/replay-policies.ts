/**
 * The context policies the replay runs: no compaction (the reference), our configurations
 * through the real compaction hook and the executor's last-resort fit, and the other
 * frameworks' policies of ./baselines.ts.
 */
import { type CompactionHookOptions, createCompactionHook } from '../src/compaction/compaction-hook.js';
import { compactorStrategy } from '../src/compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../src/compaction/prune-tool-results.js';
import { twoPhaseStrategy } from '../src/compaction/two-phase.js';
import type { CompactionStrategy } from '../src/compaction/types.js';
import type { AgentHook } from '../src/contracts/agent-hook.js';
import type { LLMProvider } from '../src/contracts/llm-provider.js';
import type { ModelRequest } from '../src/contracts/model-request.js';
import type { ToolDefinition } from '../src/contracts/tool-definition.js';
import { TruncatingSummarizer } from '../src/core/summarizer.js';
import { fitRequest } from '../src/executor/fit-request.js';
import { HookRegistry } from '../src/executor/hook-registry.js';
import { RunState } from '../src/executor/run-state.js';
import type { Message } from '../src/messages/types.js';
import { estimateTokens } from '../src/models/estimate-tokens.js';
import { BASELINES, type Baseline } from './baselines.js';
import { BASH_TOOL } from './corpus.js';

/** The model of the corpus (o200k tokens). */
export const REPLAY_MODEL = 'gpt-5-mini';

/** What a policy does at one step. */
export interface PolicyStep {
  /** The messages of the request (read before the next step: a hook rewrites it in place). */
  request: readonly Message[];
  /** True when the policy changed the transcript at this step. */
  changed: boolean;
  /** Set when the executor's last-resort fit had to compact the request before sending it. */
  fit?: { before: number; after: number };
  /** The tool definitions sent, when a policy changed them (the recall tool); the bash tool alone otherwise. */
  tools?: readonly ToolDefinition[];
}

/** A policy running on one trajectory at one window. */
export interface PolicyRun {
  /**
   * Appends the messages that arrived since the previous step, runs the policy and
   * returns the request. `residual` is how many tokens the provider counted beyond our
   * estimate on the uncompacted request of this step (undefined when the corpus has no count).
   */
  step(added: readonly Message[], residual: number | undefined): Promise<PolicyStep>;
}

/** A configuration of the benchmark: a name and how to start it on one trajectory. */
export interface ReplayConfiguration {
  name: string;
  /** True for the other frameworks' policies (the peers of the plots). */
  peer?: boolean;
  start(window: number, runId: string): PolicyRun;
}

/** No compaction: the transcript only grows. */
export function noCompaction(name = 'no compaction'): ReplayConfiguration {
  return {
    name,
    start() {
      const messages: Message[] = [];
      return {
        async step(added) {
          messages.push(...added);
          return { request: messages, changed: false };
        },
      };
    },
  };
}

const REPLAY_PROVIDER: LLMProvider = {
  provider: 'replay',
  modelId: REPLAY_MODEL,
  generate: () => Promise.reject(new Error('The replay never calls the model.')),
  stream: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('The replay never calls the model.')) }),
  }),
};

/**
 * One of our configurations through the real compaction hook (createCompactionHook with the
 * window), called as a run calls it: preGenerate; then, when the request is still over the
 * window, the executor's last-resort fit (fitRequest, with the hook's recover()); then the
 * provider's prompt count calibrates the run's budget. The provider would count the request
 * actually sent: our estimate of it plus the residual the corpus shows for this step.
 */
export function hookConfiguration(
  name: string,
  strategy: () => CompactionStrategy,
  options: Omit<CompactionHookOptions, 'strategy' | 'contextWindow'> = {},
): ReplayConfiguration {
  return {
    name,
    start(window) {
      const hook: AgentHook = createCompactionHook({ ...options, strategy: strategy(), contextWindow: window });
      const hooks = new HookRegistry([hook]);
      const messages: Message[] = [];
      const run = new RunState({ messages, provider: REPLAY_PROVIDER, abortSignal: undefined, emit: undefined });
      return {
        async step(added, residual) {
          messages.push(...added);
          run.step++;
          let changed = false;
          const emit = (event: { type: string; unchanged?: true }) => {
            if (event.type === 'compaction.done' && event.unchanged !== true) changed = true;
          };
          const request: ModelRequest = { model: REPLAY_MODEL, messages, tools: [BASH_TOOL] };
          await hook.preGenerate?.({ request, run, emit });
          let fit: PolicyStep['fit'];
          const before = run.budget.measure(request);
          if (before > window) {
            try {
              await fitRequest({ request, run, hooks, emit: undefined, overflowRecovery: true }, window, 'preflight');
            } catch {
              // Nothing more can go: the request stays over the window (counted as such).
            }
            fit = { before, after: run.budget.measure(request) };
            changed = true;
          }
          if (residual !== undefined) {
            // As the step loop does after each call: the provider's prompt count calibrates the run's budget.
            run.budget.calibrate(request, Math.max(0, estimateTokens(request) + residual));
          }
          const tools = request.tools ?? [];
          return {
            request: messages,
            changed,
            ...(fit === undefined ? {} : { fit }),
            ...(tools.length > 1 ? { tools } : {}),
          };
        },
      };
    },
  };
}

/** A baseline: a persistent one keeps its output as its transcript; the others rewrite the full history each time. */
export function baselineConfiguration(baseline: Baseline): ReplayConfiguration {
  return {
    name: baseline.name,
    peer: true,
    start(window) {
      let transcript: Message[] = [];
      return {
        async step(added) {
          const input = transcript.concat(added);
          const output = baseline.apply(input, window);
          transcript = baseline.persistent ? output : input;
          return { request: output, changed: output !== input };
        },
      };
    },
  };
}

/** The configurations of the benchmark, in report order: the reference first. */
export function replayConfigurations(): ReplayConfiguration[] {
  return [
    noCompaction(),
    hookConfiguration('prune (hook default)', () => pruneToolResultsStrategy()),
    hookConfiguration('prune, digest markers', () => pruneToolResultsStrategy({ marker: 'digest' })),
    hookConfiguration('prune + recall tool', () => pruneToolResultsStrategy(), { recall: true }),
    // The two knobs a user might reach for to stop late compactions from costing more.
    hookConfiguration('prune, protectedTokens: 0', () => pruneToolResultsStrategy(), { protectedTokens: 0 }),
    hookConfiguration('prune, thresholdPercent: 1', () => pruneToolResultsStrategy(), { thresholdPercent: 1 }),
    // The most faithful of ours: digest markers that keep up to 1,000 characters of names, compacting only at the window.
    hookConfiguration(
      'prune, digest markers (digestChars: 1,000), thresholdPercent: 1',
      () => pruneToolResultsStrategy({ marker: 'digest', digestChars: 1_000 }),
      { thresholdPercent: 1 },
    ),
    hookConfiguration("lean (mode: 'lean')", () => pruneToolResultsStrategy({ marker: 'digest' }), { mode: 'lean' }),
    ...[1_000, 4_000].map((digestChars) =>
      hookConfiguration(
        `lean, digestChars: ${digestChars.toLocaleString('en-US')}`,
        () => pruneToolResultsStrategy({ marker: 'digest', digestChars }),
        { mode: 'lean', digestChars },
      ),
    ),
    hookConfiguration('two-phase + TruncatingSummarizer', () =>
      twoPhaseStrategy({ summarizer: new TruncatingSummarizer<Message>() }),
    ),
    hookConfiguration('Compactor (compactorStrategy)', () => compactorStrategy()),
    hookConfiguration("Compactor, drain: 'fold'", () => compactorStrategy({ drain: 'fold' })),
    ...BASELINES.map(baselineConfiguration),
  ];
}
