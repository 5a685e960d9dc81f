import type { AgentHook, PreGenerateContext, RecoverContext } from '../contracts/agent-hook.js';
import { LoushoError } from '../errors/lousho-error.js';
import { compactInRun, type RunCompaction } from './compact-in-run.js';
import type { CompactionHookOptions } from './compaction-options.js';
import { fitTo, OVERFLOW_RECOVERY_NAME } from './overflow-recovery.js';
import { onceWarner } from './request-budget.js';
import { type ResolvedCompaction, resolveCompaction } from './resolve-compaction.js';
import { effectiveProtectedTokens, thresholdTokens } from './sizes.js';
import type { CompactionStrategy } from './types.js';

export type { CompactionHookOptions } from './compaction-options.js';
export type { CompactionInfo } from './compaction-report.js';
export { LEAN_MIN_GAIN_RATIO } from './lean-layer.js';

/** Sends with the request the strategy's own tools it offers now, and not the others (an unchanged list stays the same array). */
function offerTools(request: PreGenerateContext['request'], strategy: CompactionStrategy): void {
  const own = strategy.tools ?? [];
  if (own.length === 0) return;
  const offered = new Set(strategy.offers?.({ messages: request.messages, transcript: request.messages }));
  const others = (request.tools ?? []).filter((t) => !own.some((o) => o.name === t.name));
  const tools = [...others, ...own.filter((t) => offered.has(t.name))];
  const same = tools.length === request.tools?.length && tools.every((t, i) => t === request.tools?.[i]);
  if (same) return;
  if (tools.length > 0) request.tools = tools;
  else delete request.tools;
}

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
export function createCompactionHook(options: CompactionHookOptions | ResolvedCompaction = {}): AgentHook {
  const o = resolveCompaction(options, 'createCompactionHook()');
  const warn = onceWarner();
  const feature = {
    name: 'Compaction',
    setting: 'compaction.contextWindow (or createCompactionHook({ contextWindow }))',
    warn,
  };

  /** The window, the threshold and the protected tail of this request: pure arithmetic on the options. */
  async function sizes(run: PreGenerateContext['run'], target?: number) {
    const contextWindow = await run.budget.contextWindow({ option: o.contextWindow, feature });
    const threshold = thresholdTokens(contextWindow, o.thresholdPercent, o.reserveOutputTokens);
    const tokens = target === undefined ? threshold : Math.max(1, Math.min(target, threshold));
    const { protectedTokens, capped } = effectiveProtectedTokens(o.protectedTokens, tokens);
    if (capped && target === undefined) {
      warn(
        'protected',
        `@lousho/build-ai-agent: compaction protectedTokens (${o.protectedTokens}) is at or above the threshold (${tokens} tokens) ` +
          `and would protect everything; using ${protectedTokens}, half the threshold. Set protectedTokens below the threshold.`,
      );
    }
    return { contextWindow, thresholdTokens: tokens, protectedTokens };
  }

  const compaction = (
    ctx: PreGenerateContext | RecoverContext,
    fields: Omit<RunCompaction, 'request' | 'run' | 'emit' | 'onCompaction'>,
  ) => compactInRun({ request: ctx.request, run: ctx.run, emit: ctx.emit, onCompaction: o.onCompaction, ...fields });

  /** Sizes, then the threshold, then one compaction: above the threshold, or where a layer has work below it. */
  async function preGenerate(ctx: PreGenerateContext): Promise<void> {
    const { request, run } = ctx;
    offerTools(request, o.strategy);
    const size = await sizes(run);
    const tokensBefore = run.budget.measure(request);
    const due = tokensBefore > size.thresholdTokens;
    if (!due && o.strategy.wants?.({ messages: request.messages, transcript: request.messages }) !== true) return;
    // An attempt above the threshold that changed nothing is followed by quiet ones until one changes something.
    const memory = run.hookMemory('compaction', () => ({ quiet: false }));
    const outcome = await compaction(ctx, {
      ...size,
      strategy: o.strategy,
      tokensBefore,
      quiet: !due || memory.quiet,
    });
    if (due) memory.quiet = !outcome.changed;
    offerTools(request, o.strategy);
  }

  /** The overflow recovery: the request does not fit, and must get under `targetTokens`. */
  async function recover(ctx: RecoverContext): Promise<boolean> {
    if (o.overflow === undefined) {
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
    const outcome = await compaction(ctx, {
      ...(await sizes(ctx.run, ctx.targetTokens)),
      strategy: fitTo(o.overflow, ctx.targetTokens),
      tokensBefore: ctx.run.budget.measure(ctx.request),
      trigger: 'overflow',
      quiet: false,
    });
    return outcome.changed;
  }

  // It rewrites the transcript through run.transcript, so the run recounts only what it changed.
  return { name: 'compaction', preGenerate, recover, usesTranscript: true };
}
