import type { CompactionHookOptions, CompactionLayers } from './compaction-options.js';
import { pruneThenFold } from './fold-turns.js';
import { leanLayer } from './lean-layer.js';
import { pruneReasoningLayer } from './prune-reasoning.js';
import type { PrunedResultStore } from './pruned-store.js';
import { recallLayer } from './recall-layer.js';
import { summaryGuard } from './summary-guard.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, transcriptOf } from './types.js';

/** The options that are layers: what lean mode's defaults give way to when set. */
const LAYER_KEYS: Record<keyof CompactionLayers, true> = {
  lowWaterMark: true,
  fold: true,
  minimumGain: true,
  pruneReasoning: true,
};

/** The low-water mark a fold goes down to when `lowWaterMark` is not set: half the threshold. */
export const DEFAULT_LOW_WATER_MARK = 0.5;

function unchanged(input: CompactionInput, tokens: number, error?: Error): CompactionResult {
  return {
    messages: input.messages,
    tokensBefore: tokens,
    tokensAfter: tokens,
    prunedToolCallIds: [],
    ...(error === undefined ? {} : { error }),
  };
}

function share(input: CompactionInput, of: number): number {
  return Math.max(1, Math.floor(input.thresholdTokens * of));
}

/** `strategy`, asked to get under `lowWaterMark` times the threshold. */
export function lowWaterMarkLayer(strategy: CompactionStrategy, lowWaterMark: number): CompactionStrategy {
  return {
    ...strategy,
    compact: (input) => strategy.compact({ ...input, thresholdTokens: share(input, lowWaterMark) }),
  };
}

/**
 * `strategy`, then, when its result (without a summary) is still above the low-water mark,
 * the remaining old results pruned and the oldest turns folded down to it.
 */
export function foldLayer(strategy: CompactionStrategy, lowWaterMark = DEFAULT_LOW_WATER_MARK): CompactionStrategy {
  return {
    ...strategy,
    async compact(input) {
      const result = await strategy.compact(input);
      const lowWater = share(input, lowWaterMark);
      const after = result.messages === input.messages ? result.tokensBefore : input.estimateTokens(result.messages);
      if (after <= lowWater) return result;
      const folded = pruneThenFold({ ...input, messages: result.messages }, lowWater);
      if (folded.messages === result.messages) return result;
      return {
        ...folded,
        tokensBefore: result.tokensBefore,
        prunedToolCallIds: [...result.prunedToolCallIds, ...folded.prunedToolCallIds],
        ...(result.error === undefined ? {} : { error: result.error }),
      };
    },
  };
}

/**
 * `strategy`, whose result is applied only when it frees at least `minimumGain` times the
 * threshold; else the transcript is left as it is and the next attempt on the same
 * transcript waits until the request has grown by what was missing.
 */
export function minimumGainLayer(strategy: CompactionStrategy, minimumGain: number): CompactionStrategy {
  // Per transcript: the hook compacts the run's own transcript at every step.
  const retryAbove = new WeakMap<object, number>();
  return {
    ...strategy,
    async compact(input) {
      const before = input.estimateTokens(input.messages);
      const wait = retryAbove.get(transcriptOf(input));
      if (wait !== undefined && before < wait) return unchanged(input, before);
      const result = await strategy.compact(input);
      const after = result.messages === input.messages ? before : input.estimateTokens(result.messages);
      const needed = share(input, minimumGain);
      if (before - after >= needed) {
        retryAbove.delete(transcriptOf(input));
        return result;
      }
      retryAbove.set(transcriptOf(input), before + needed - (before - after));
      return unchanged(input, before, result.error);
    },
  };
}

/**
 * The layers lean mode turns on, unless you set them: above the threshold it folds the
 * oldest turns down to half of it, and applies only compactions that free a tenth of it.
 */
export const LEAN_LAYERS: Required<Pick<CompactionLayers, 'fold' | 'minimumGain'>> = { fold: true, minimumGain: 0.1 };

/**
 * The strategy with the layers that are on, in one fixed order, from the inside out: the
 * reasoning prune (part of what the strategy frees), the low-water mark (ask for less), the
 * summary rule for a strategy that summarizes (one with a `fallback`: a summary left above
 * the threshold itself is rejected, the fallback, reasoning pruned too, kept, summaries
 * paused), the fold (go further), the minimum gain (refuse too little), lean mode (prune each
 * result once answered; the strategy runs above the threshold), recall (keep what any of them
 * pruned). With none on and no fallback, the strategy itself. The one place layers are
 * applied, for every path.
 */
export function withLayers(
  strategy: CompactionStrategy,
  options: CompactionHookOptions,
  recall: PrunedResultStore | undefined,
): CompactionStrategy {
  const set = Object.entries(options).filter(([key, value]) => value !== undefined && key in LAYER_KEYS);
  const layers: CompactionLayers = { ...(options.mode === 'lean' ? LEAN_LAYERS : {}), ...Object.fromEntries(set) };
  const reasoning = (s: CompactionStrategy) => (layers.pruneReasoning === true ? pruneReasoningLayer(s) : s);
  let layered = reasoning(strategy);
  if (layers.lowWaterMark !== undefined) layered = lowWaterMarkLayer(layered, layers.lowWaterMark);
  if (strategy.fallback !== undefined) layered = summaryGuard(layered, reasoning(strategy.fallback));
  if (layers.fold === true) layered = foldLayer(layered, layers.lowWaterMark);
  if (layers.minimumGain !== undefined) layered = minimumGainLayer(layered, layers.minimumGain);
  if (options.mode === 'lean')
    layered = leanLayer(layered, { protectedTokens: options.protectedTokens, digestChars: options.digestChars });
  return recall === undefined ? layered : recallLayer(layered, recall);
}

/**
 * The overflow recovery with the layers that apply to it: the reasoning prune and recall.
 * The low-water mark, the fold, the minimum gain and lean mode do not: the recovery must get
 * under its target, and folds and prunes on its own to do it.
 */
export function withOverflowLayers(
  overflow: CompactionStrategy,
  options: CompactionHookOptions,
  recall: PrunedResultStore | undefined,
): CompactionStrategy {
  const layered = options.pruneReasoning === true ? pruneReasoningLayer(overflow) : overflow;
  return recall === undefined ? layered : recallLayer(layered, recall);
}
