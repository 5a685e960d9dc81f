import type { AgentHook, PreGenerateContext, RecoverContext } from '../contracts/agent-hook.js';
import { LoushoError } from '../errors/lousho-error.js';
import { notesItsEdits } from '../messages/edits.js';
import { attemptCompaction, type HookAttempt } from './hook-attempt.js';
import { hookMemory } from './hook-memory.js';
import { type CompactionHookOptions, offerRecall, resolveHookOptions } from './hook-options.js';
import { leanStep } from './lean-step.js';
import { thresholdTokens as computeThreshold } from './options.js';
import { OVERFLOW_RECOVERY_NAME, overflowRecoveryStrategy } from './overflow-recovery.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { onceWarner } from './request-budget.js';
import { pauseUntil, summariesPaused } from './trigger.js';

export type { CompactionInfo } from './compaction-report.js';
export { type CompactionHookOptions, LEAN_MIN_GAIN_RATIO } from './hook-options.js';

/**
 * An AgentHook named 'compaction' that keeps a run under its model's context window.
 * Before every model call it asks the run's RequestBudget for the request's size (messages,
 * tool definitions, output schema, plus what the provider counted beyond the estimate on
 * the run's previous call); above the threshold it runs the strategy (with the layers you
 * turned on around it) and rewrites the run's transcript in place. Compaction never fails
 * a run. When a request does not fit the window at all, its recover() runs the overflow
 * recovery (see `overflowRecovery`).
 *
 * @example
 * createAgent({ provider, hooks: [createCompactionHook({ strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) })] });
 */
export function createCompactionHook(options: CompactionHookOptions = {}): AgentHook {
  const o = resolveHookOptions(options);
  const warn = onceWarner();
  const feature = {
    name: 'Compaction',
    setting: 'compaction.contextWindow (or createCompactionHook({ contextWindow }))',
    warn,
  };
  const overflow = overflowRecoveryStrategy();

  /** The window, the threshold and the protected tail of this request: pure arithmetic on the options. */
  async function sizes(run: PreGenerateContext['run'], target?: number) {
    const contextWindow = await run.budget.contextWindow({ option: o.windowOption, feature });
    const threshold = computeThreshold(contextWindow, o.percent, o.reserve);
    const thresholdTokens = target === undefined ? threshold : Math.max(1, Math.min(target, threshold));
    const { protectedTokens, capped } = effectiveProtectedTokens(o.protectedOption, thresholdTokens);
    if (capped && target === undefined) {
      warn(
        'protected',
        `@lousho/build-ai-agent: compaction protectedTokens (${o.protectedOption}) is at or above the threshold (${thresholdTokens} tokens) ` +
          `and would protect everything; using ${protectedTokens}, half the threshold. Set protectedTokens below the threshold.`,
      );
    }
    return { contextWindow, thresholdTokens, protectedTokens };
  }

  function attempt(
    ctx: PreGenerateContext,
    fields: Omit<HookAttempt, 'request' | 'run' | 'emit' | 'recall' | 'onCompaction'>,
  ): HookAttempt {
    return {
      request: ctx.request,
      run: ctx.run,
      emit: ctx.emit,
      recall: o.recall,
      onCompaction: o.onCompaction,
      ...fields,
    };
  }

  async function preGenerate(ctx: PreGenerateContext): Promise<void> {
    const { request, run } = ctx;
    const size = await sizes(run);
    const memory = hookMemory(run);
    if (o.mode === 'lean') await leanStep(ctx, size, o, (a) => attemptCompaction(attempt(ctx, a)));
    if (o.recall !== undefined) offerRecall(request, memory.recallable > 0);
    const tokensBefore = run.budget.measure(request);
    if (tokensBefore <= size.thresholdTokens) return;
    // After a rejected (or failed) summary the strategy's own prune step runs, until the transcript doubles.
    const paused = summariesPaused(memory.pausedUntil, request.messages.length);
    if (!paused) memory.pausedUntil = undefined;
    const length = request.messages.length;
    const outcome = await attemptCompaction(
      attempt(ctx, {
        ...size,
        strategy: paused ? o.fallback : o.strategy,
        fallback: o.fallback,
        tokensBefore,
        quiet: memory.quiet,
      }),
    );
    if (!paused && (outcome.summaryRejected || outcome.error !== undefined)) memory.pausedUntil = pauseUntil(length);
    memory.quiet = !outcome.changed;
    if (o.recall !== undefined) offerRecall(request, memory.recallable > 0);
  }

  /** The overflow recovery: the request does not fit, and must get under `targetTokens`. */
  async function recover(ctx: RecoverContext): Promise<boolean> {
    if (!o.overflowRecovery) {
      throw new LoushoError(
        'LOUSHO_CONTEXT_OVERFLOW',
        `The request (${ctx.run.budget.measure(ctx.request)} tokens) does not fit the context window (${ctx.targetTokens} tokens left for it), ` +
          'and compaction.overflowRecovery is false. Lower thresholdPercent or protectedTokens, add a summarizer, or turn overflowRecovery on.',
        {
          details: {
            requested: ctx.run.budget.measure(ctx.request),
            limit: ctx.targetTokens,
            strategy: OVERFLOW_RECOVERY_NAME,
          },
        },
      );
    }
    const size = await sizes(ctx.run, ctx.targetTokens);
    const outcome = await attemptCompaction(
      attempt(ctx, {
        ...size,
        strategy: overflow,
        fallback: overflow,
        tokensBefore: ctx.run.budget.measure(ctx.request),
        trigger: 'overflow',
        quiet: false,
      }),
    );
    return outcome.changed;
  }

  // It notes where it rewrites the transcript (messages/edits.ts), so the executor need not note it after it.
  return notesItsEdits({ name: 'compaction', preGenerate, recover });
}
