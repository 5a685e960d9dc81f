import type { AgentHook, PreGenerateContext, RecoverContext, RunContext } from '../contracts/agent-hook.js';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { FOLD_STEP_NAME } from './fold-turns.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  thresholdTokens as computeThreshold,
  DEFAULT_THRESHOLD_PERCENT,
} from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { PRUNE_STRATEGY_NAME, pruneToolResultsStrategy } from './prune-tool-results.js';
import { onceWarner } from './request-budget.js';
import {
  type CompactionInfo,
  compactionDoneEvent,
  compactionInfo,
  compactionStartEvent,
  runCompaction,
} from './run-compaction.js';
import { FIT_LOW_WATER_PERCENT, nextStepSizes, summariesPaused } from './trigger.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

export type { CompactionInfo } from './run-compaction.js';

/** Tokens of the newest assistant turn: its message and what follows it. */
function newestTurnTokens(messages: readonly Message[], count: ((message: Message) => number) | undefined): number {
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0 && count !== undefined; i--) {
    const message = messages[i] as Message;
    tokens += count(message);
    if (message.role === 'assistant') break;
  }
  return tokens;
}

/** Says once per hook that pruning alone no longer holds the run. */
function warnFolded(warn: (key: string, message: string) => void): void {
  warn(
    'folded',
    '@lousho/build-ai-agent: pruning tool results no longer keeps this run under the compaction threshold, so the ' +
      'hook folded its oldest turns into one short marker (their calls are listed, their text is gone). A summarizer ' +
      "keeps more of them: createAgent({ compaction: { summarizer: 'openai/gpt-4o-mini' } }).",
  );
}

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

/** What the hook remembers of one run between steps. */
interface HookMemory {
  /** An attempt changed nothing: stay quiet until one does. */
  quiet: boolean;
  /** The strategy (its summaries) is paused until the run has added this many messages. */
  pausedUntil: number | undefined;
  /** Messages the run has added so far: the transcript's length, had no compaction removed any. */
  added: number;
  /** The transcript's length when the hook last saw it. */
  length: number;
  /** The last attempt could not free the minimum gain: the next waits until the request is above this. */
  retryAbove: number | undefined;
}

interface Sizes {
  contextWindow: number;
  thresholdTokens: number;
  protectedTokens: number;
  /** Report even when an earlier attempt changed nothing (a recovery). */
  loud: boolean;
  /** The hook's next step and minimum gain, for a strategy that does not summarize. */
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
  const where = 'createCompactionHook()';
  if (typeof options !== 'object' || options === null) throw configError(`${where} takes an options object.`);
  const strategy = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy();
  const percent = checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT;
  const windowOption = checkContextWindow(options.contextWindow, where);
  const protectedOption = checkTokens(options.protectedTokens, 'protectedTokens', where);
  const reserve = checkTokens(options.reserveOutputTokens, 'reserveOutputTokens', where) ?? 0;
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
  // A strategy with a prune step of its own summarizes: a summary is its next step, not a fold.
  const folds = strategy.fallback === undefined;
  const memoryOf = (run: RunContext) => {
    const memory = run.hookMemory<HookMemory>('compaction', () => ({
      quiet: false,
      pausedUntil: undefined,
      added: 0,
      length: 0,
      retryAbove: undefined,
    }));
    memory.added += Math.max(0, run.messages.length - memory.length);
    memory.length = run.messages.length;
    return memory;
  };

  /** Runs the strategy on the request's transcript (in place) to get under the threshold; true when it changed. */
  async function compactNow({ request, run, emit }: PreGenerateContext, sizes: Sizes, tokensBefore: number) {
    const memory = memoryOf(run);
    const messages = request.messages;
    const paused = summariesPaused(memory.pausedUntil, memory.added);
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
    const next = sizes.next;
    const outcome = await runCompaction({ strategy: running, fallback, input, tokensBefore, ...(next && { next }) });
    // A rejected summary, or a strategy or summarizer that failed, pauses the strategy until the transcript doubles.
    if ((outcome.summaryRejected || outcome.error !== undefined) && !paused) memory.pausedUntil = memory.added * 2;
    if (outcome.changed) messages.splice(0, messages.length, ...outcome.messages);
    memory.length = messages.length;
    memory.quiet = !outcome.changed;
    const gain = outcome.tokensBefore - outcome.tokensAfter;
    // Nothing worth it now: what a later attempt can free grows with what the run adds, plus
    // the newest turn, which is not pruned while it is the newest.
    memory.retryAbove = outcome.changed
      ? undefined
      : tokensBefore + Math.max(1, (next?.minGainTokens ?? 0) - gain - newestTurnTokens(messages, input.countMessage));
    if (outcome.appliedStrategy === FOLD_STEP_NAME) warnFolded(warn);
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
    const memory = memoryOf(run);
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
    const next = folds ? nextStepSizes(thresholdTokens) : undefined;
    // Pruning alone is not enough until the low-water mark: it leaves every turn and marker in
    // place, so each crossing would come sooner than the last and break the cache again.
    if (next !== undefined && strategy.name === PRUNE_STRATEGY_NAME) next.foldAbove = next.lowWaterTokens;
    await compactNow(ctx, { contextWindow, thresholdTokens, protectedTokens, loud: false, next }, tokens);
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
