import type { CompactionStartEvent } from '../contracts/agent-event.js';
import type { AgentHook, PreGenerateContext, RecoverContext, RunContext } from '../contracts/agent-hook.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { compactionDoneEvent, compactionInfo, compactionStartEvent } from './compaction-report.js';
import { FOLD_STEP_NAME } from './fold-turns.js';
import { hookMemory, newestTurnTokens, readAgain } from './hook-memory.js';
import {
  type CompactionHookOptions,
  LEAN_MIN_GAIN_RATIO,
  offerRecall,
  resolveHookOptions,
  warnFolded,
} from './hook-options.js';
import { thresholdTokens as computeThreshold } from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { PRUNE_STRATEGY_NAME, pruneToolResults } from './prune-tool-results.js';
import { onceWarner } from './request-budget.js';
import { type CompactionOutcome, runCompaction } from './run-compaction.js';
import { FIT_LOW_WATER_PERCENT, nextStepSizes, summariesPaused } from './trigger.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

export type { CompactionInfo } from './compaction-report.js';
export { type CompactionHookOptions, LEAN_MIN_GAIN_RATIO } from './hook-options.js';

interface Sizes {
  contextWindow: number;
  thresholdTokens: number;
  protectedTokens: number;
  /** Report even when an earlier attempt changed nothing (a recovery). */
  loud: boolean;
  /**
   * The low-water mark and the minimum gain. A strategy that does not summarize takes the
   * hook's next step to it (a fold); one that summarizes is asked for it itself (runCompaction's `deeper`).
   */
  next: { lowWaterTokens: number; minGainTokens: number; foldAbove?: number } | undefined;
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
  const {
    mode,
    recall,
    note,
    lean,
    strategy,
    fallback,
    percent,
    windowOption,
    protectedOption,
    reserve,
    onCompaction,
  } = resolveHookOptions(options);
  const warn = onceWarner();
  const feature = {
    name: 'Compaction',
    setting: 'compaction.contextWindow (or createCompactionHook({ contextWindow }))',
    warn,
  };
  // A strategy with a prune step of its own summarizes: a summary is its next step, not a fold.
  const folds = strategy.fallback === undefined;
  const memoryOf = hookMemory;
  // Lean mode's per-step prune: the results read since the last step, when they pay for their marker.
  const readPrune = (from: number, shownNames: Set<string>): CompactionStrategy => ({
    name: PRUNE_STRATEGY_NAME,
    compact: (input) =>
      pruneToolResults(input, {
        ...lean,
        marker: 'digest',
        minGainRatio: LEAN_MIN_GAIN_RATIO,
        from: Math.max(0, from),
        shownNames,
        ...note,
      }),
  });

  /** Runs the strategy on the request's transcript (in place) to get under the threshold; true when it changed. */
  async function compactNow(
    { request, run, emit }: PreGenerateContext,
    sizes: Sizes,
    tokensBefore: number,
    only?: CompactionStrategy,
  ) {
    const memory = memoryOf(run);
    const messages = request.messages;
    const paused = only === undefined && summariesPaused(memory.pausedUntil, memory.added);
    if (!paused && only === undefined) memory.pausedUntil = undefined;
    const running = only ?? (paused ? fallback : strategy);
    const at = { runId: run.runId, step: run.step };
    const start = compactionStartEvent(at, {
      strategy: running.name,
      tokensBefore,
      contextWindow: sizes.contextWindow,
      thresholdTokens: sizes.thresholdTokens,
    });
    // The per-step prune reports only what it changed.
    const quiet = only !== undefined || (memory.quiet && !sizes.loud);
    if (!quiet) emit?.(start);
    const budget = run.budget;
    const input: CompactionInput = {
      messages,
      // The transcript itself was just measured (incrementally): only other lists are measured in full.
      estimateTokens: (list: readonly Message[]) =>
        list === messages ? tokensBefore : budget.measureWith(request, list),
      countMessage: (message) => budget.messageTokens(message, request.model),
      contextWindow: sizes.contextWindow,
      protectedTokens: sizes.protectedTokens,
      thresholdTokens: sizes.thresholdTokens,
      model: request.model,
      ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
      onModelCall: (call) => run.recordModelCall(call),
    };
    const next = sizes.next;
    const outcome = await runCompaction({
      strategy: running,
      fallback: only ?? fallback,
      input,
      tokensBefore,
      ...(next && (folds ? { next } : running === strategy ? { deeper: next } : {})),
    });
    if (only !== undefined) {
      if (outcome.changed) await applyOutcome(run, messages, outcome);
      if (outcome.changed) report({ request, run, ...(emit && { emit }) }, start, outcome, sizes);
      return outcome.changed;
    }
    // A rejected summary, or a strategy or summarizer that failed, pauses the strategy until the transcript doubles.
    if ((outcome.summaryRejected || outcome.error !== undefined) && !paused) memory.pausedUntil = memory.added * 2;
    if (outcome.changed) await applyOutcome(run, messages, outcome);
    memory.quiet = !outcome.changed;
    const gain = outcome.tokensBefore - outcome.tokensAfter;
    // Nothing worth it now: what a later attempt can free grows with what the run adds, plus
    // the newest turn, which is not pruned while it is the newest.
    memory.retryAbove = outcome.changed
      ? undefined
      : tokensBefore + Math.max(1, (next?.minGainTokens ?? 0) - gain - newestTurnTokens(messages, input.countMessage));
    if (outcome.appliedStrategy === FOLD_STEP_NAME) warnFolded(warn);
    if (quiet && !outcome.changed && outcome.error === undefined) return false;
    report({ request, run, ...(emit && { emit }) }, quiet ? start : undefined, outcome, sizes);
    return outcome.changed;
  }

  /** Rewrites the transcript in place, keeping the originals of what was pruned when recall is on. */
  async function applyOutcome(run: RunContext, messages: Message[], outcome: CompactionOutcome): Promise<void> {
    const memory = memoryOf(run);
    if (recall !== undefined && outcome.prunedToolCallIds.length > 0) {
      const pruned = new Set(outcome.prunedToolCallIds);
      for (const m of messages) {
        if (m.role !== 'tool' || !pruned.has(m.toolCallId)) continue;
        try {
          await recall.save(m);
          memory.recallable++;
        } catch (error) {
          console.error(
            '@lousho/build-ai-agent: the pruned-result store failed to save; that result cannot be recalled.',
            error,
          );
        }
      }
    }
    // Messages removed (a fold, a summary) move the indices. When they all went before the
    // per-step prune's position, it moves with them; else that prune looks at everything again.
    const removed = messages.length - outcome.messages.length;
    if (removed > 0) {
      const at = memory.readFrom - removed;
      if (at >= 0 && outcome.messages[at] === messages[memory.readFrom]) memory.readFrom = at;
      else readAgain(memory);
    }
    messages.splice(0, messages.length, ...outcome.messages);
    memory.length = messages.length;
  }

  /** Emits the done event (and a start the caller held back) and calls onCompaction. */
  function report(
    ctx: PreGenerateContext,
    start: CompactionStartEvent | undefined,
    outcome: CompactionOutcome,
    sizes: Sizes,
  ) {
    const at = { runId: ctx.run.runId, step: ctx.run.step };
    if (start !== undefined) ctx.emit?.(start);
    ctx.emit?.(compactionDoneEvent(at, outcome));
    if ((outcome.changed || outcome.error !== undefined) && onCompaction !== undefined) {
      try {
        onCompaction(compactionInfo(outcome, sizes));
      } catch (callbackError) {
        console.error('@lousho/build-ai-agent: onCompaction threw; the run goes on.', callbackError);
      }
    }
  }

  async function preGenerate(ctx: PreGenerateContext): Promise<void> {
    const { request, run } = ctx;
    const contextWindow = await run.budget.contextWindow({ option: windowOption, feature });
    const thresholdTokens = computeThreshold(contextWindow, percent, reserve);
    const memory = memoryOf(run);
    if (mode === 'lean') {
      const sizes = {
        contextWindow,
        thresholdTokens,
        protectedTokens: protectedOption ?? 0,
        loud: false,
        next: undefined,
      };
      const from = memory.readFrom;
      memory.readFrom = latestAssistantIndex(request.messages);
      await compactNow(ctx, sizes, run.budget.measure(request), readPrune(from, memory.shownNames));
    }
    if (recall !== undefined) offerRecall(request, memory.recallable > 0);
    const tokens = run.budget.measure(request);
    if (tokens <= thresholdTokens) return;
    // The last attempt could not free enough: wait until the request has grown by what was missing.
    if (memory.retryAbove !== undefined && tokens < memory.retryAbove) return;
    const { protectedTokens, capped } = effectiveProtectedTokens(protectedOption, thresholdTokens);
    if (capped) {
      warn(
        'protected',
        `@lousho/build-ai-agent: compaction protectedTokens (${protectedOption}) is at or above the threshold (${thresholdTokens} tokens) ` +
          `and would protect everything; using ${protectedTokens}. Set protectedTokens below the threshold.`,
      );
    }
    const next = nextStepSizes(thresholdTokens);
    // Pruning alone is not enough until the low-water mark: it leaves every turn and marker in
    // place, so each crossing would come sooner than the last and break the cache again.
    if (strategy.name === PRUNE_STRATEGY_NAME) next.foldAbove = next.lowWaterTokens;
    await compactNow(ctx, { contextWindow, thresholdTokens, protectedTokens, loud: false, next }, tokens);
    if (recall !== undefined) offerRecall(request, memory.recallable > 0);
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
      {
        contextWindow,
        thresholdTokens,
        protectedTokens: tighter,
        loud: true,
        next: folds
          ? { lowWaterTokens: Math.floor(thresholdTokens * FIT_LOW_WATER_PERCENT), minGainTokens: 0 }
          : undefined,
      },
      run.budget.measure(request),
    );
  }

  return { name: 'compaction', preGenerate, recover };
}
