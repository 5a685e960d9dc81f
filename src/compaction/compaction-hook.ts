import type { AgentHook, PreGenerateContext, RecoverContext, RunContext } from '../contracts/agent-hook.js';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  thresholdTokens as computeThreshold,
  DEFAULT_THRESHOLD_PERCENT,
} from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { onceWarner } from './request-budget.js';
import {
  type CompactionInfo,
  compactionDoneEvent,
  compactionInfo,
  compactionStartEvent,
  runCompaction,
} from './run-compaction.js';
import { summariesPaused } from './trigger.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

export type { CompactionInfo } from './run-compaction.js';

export interface CompactionHookOptions {
  /** How to compact; pruneToolResultsStrategy() by default. twoPhaseStrategy() is recommended. */
  strategy?: CompactionStrategy;
  /** Compact when the estimated request is above this share of the context window. In (0, 1]; default 0.9. */
  thresholdPercent?: number;
  /** Context window in tokens; by default looked up for request.model, else 128,000 with a one-time warning. */
  contextWindow?: number;
  /** The newest messages that fit in this many tokens are never changed. Default 40,000, at most half the threshold. */
  protectedTokens?: number;
  /** Tokens kept free for the reply: the threshold becomes at most contextWindow - reserveOutputTokens. */
  reserveOutputTokens?: number;
  /** Called after each compaction that changed the conversation or reported an error. */
  onCompaction?: (info: CompactionInfo) => void;
}

/** The options createCompactionHook() takes. */
export const HOOK_KEYS: (keyof CompactionHookOptions)[] = [
  'strategy',
  'thresholdPercent',
  'contextWindow',
  'protectedTokens',
  'reserveOutputTokens',
  'onCompaction',
];

/** What the hook remembers of one run between steps. */
interface HookMemory {
  /** An attempt changed nothing: stay quiet until one does. */
  quiet: boolean;
  /** Summaries are paused until the transcript has this many messages. */
  pausedUntil: number | undefined;
}

interface Sizes {
  contextWindow: number;
  thresholdTokens: number;
  protectedTokens: number;
  /** Report even when an earlier attempt changed nothing (a recovery). */
  loud: boolean;
}

/**
 * An AgentHook named 'compaction' that keeps a run under its model's context window.
 * Before every model call it asks the run's RequestBudget for the request's size (messages,
 * tool definitions, output schema, plus what the provider counted beyond the estimate on
 * the run's previous call); above the threshold it runs the strategy and rewrites the run's
 * transcript in place. Compaction never fails a run.
 *
 * @example
 * createAgent({ provider, hooks: [createCompactionHook({ strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) })] });
 */
export function createCompactionHook(options: CompactionHookOptions = {}): AgentHook {
  const where = 'createCompactionHook()';
  if (typeof options !== 'object' || options === null) throw configError(`${where} takes an options object.`);
  checkOptions<CompactionHookOptions>(options, where, HOOK_KEYS);
  const strategy = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy();
  const percent = checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT;
  const windowOption = checkContextWindow(options.contextWindow, where);
  const protectedOption = checkTokens(options.protectedTokens, 'protectedTokens', where);
  const reserve = checkTokens(options.reserveOutputTokens, 'reserveOutputTokens', where) ?? 0;
  if (windowOption !== undefined && reserve >= windowOption) {
    throw configError(
      `${where}: reserveOutputTokens (${reserve}) must be below contextWindow (${windowOption}); it is the part of the window kept for the reply.`,
      { option: 'reserveOutputTokens' },
    );
  }
  const onCompaction = options.onCompaction;
  if (onCompaction !== undefined && typeof onCompaction !== 'function')
    throw configError(`${where}: onCompaction must be a function.`);
  const fallback = strategy.fallback ?? pruneToolResultsStrategy();
  const warn = onceWarner();
  const feature = {
    name: 'Compaction',
    setting: 'compaction.contextWindow (or createCompactionHook({ contextWindow }))',
    warn,
  };
  const memoryOf = (run: RunContext) =>
    run.hookMemory<HookMemory>('compaction', () => ({ quiet: false, pausedUntil: undefined }));

  /** Runs the strategy on the request's transcript (in place) to get under the threshold; true when it changed. */
  async function compactNow({ request, run, emit }: PreGenerateContext, sizes: Sizes, tokensBefore: number) {
    const memory = memoryOf(run);
    const messages = request.messages;
    const paused = summariesPaused(memory.pausedUntil, messages.length);
    if (!paused) memory.pausedUntil = undefined;
    const running = paused ? fallback : strategy;
    const at = { runId: run.runId, step: run.step };
    const start = compactionStartEvent(at, {
      strategy: running.name,
      tokensBefore,
      contextWindow: sizes.contextWindow,
      thresholdTokens: sizes.thresholdTokens,
    });
    const quiet = memory.quiet && !sizes.loud;
    if (!quiet) emit?.(start);
    const budget = run.budget;
    const input: CompactionInput = {
      messages,
      estimateTokens: (list: readonly Message[]) => budget.measureWith(request, list),
      countMessage: (message) => budget.messageTokens(message, request.model),
      contextWindow: sizes.contextWindow,
      protectedTokens: sizes.protectedTokens,
      thresholdTokens: sizes.thresholdTokens,
      model: request.model,
      ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
      onModelCall: (call) => run.recordModelCall(call),
    };
    const outcome = await runCompaction({ strategy: running, fallback, input, tokensBefore });
    if (outcome.summaryRejected) memory.pausedUntil = messages.length * 2;
    if (outcome.changed) messages.splice(0, messages.length, ...outcome.messages);
    memory.quiet = !outcome.changed;
    if (quiet && !outcome.changed && outcome.error === undefined) return false;
    if (quiet) emit?.(start);
    emit?.(compactionDoneEvent(at, outcome));
    if ((outcome.changed || outcome.error !== undefined) && onCompaction !== undefined) {
      try {
        onCompaction(compactionInfo(outcome, sizes));
      } catch (callbackError) {
        console.error('@lousho/build-ai-agent: onCompaction threw; the run goes on.', callbackError);
      }
    }
    return outcome.changed;
  }

  async function preGenerate(ctx: PreGenerateContext): Promise<void> {
    const { request, run } = ctx;
    const tokens = run.budget.measure(request);
    const contextWindow = await run.budget.contextWindow({ option: windowOption, feature });
    const thresholdTokens = computeThreshold(contextWindow, percent, reserve);
    if (tokens <= thresholdTokens) return;
    const { protectedTokens, capped } = effectiveProtectedTokens(protectedOption, thresholdTokens);
    if (capped) {
      warn(
        'protected',
        `@lousho/build-ai-agent: compaction protectedTokens (${protectedOption}) is more than half the threshold (${thresholdTokens} tokens), ` +
          `so compaction might not get the request under it; using ${protectedTokens}. Set protectedTokens to at most half the threshold.`,
      );
    }
    await compactNow(ctx, { contextWindow, thresholdTokens, protectedTokens, loud: false }, tokens);
  }

  /** Compacts harder when the request does not fit: to the target, with at most half of it protected. */
  async function recover(ctx: RecoverContext): Promise<boolean> {
    const { request, run } = ctx;
    const contextWindow = await run.budget.contextWindow({ option: windowOption, feature });
    const thresholdTokens = Math.max(1, Math.min(ctx.targetTokens, computeThreshold(contextWindow, percent, reserve)));
    const { protectedTokens } = effectiveProtectedTokens(protectedOption, thresholdTokens);
    const tighter = Math.min(protectedTokens, Math.floor(thresholdTokens / 2));
    return compactNow(
      { request, run, ...(ctx.emit === undefined ? {} : { emit: ctx.emit }) },
      { contextWindow, thresholdTokens, protectedTokens: tighter, loud: true },
      run.budget.measure(request),
    );
  }

  return { name: 'compaction', preGenerate, recover };
}
