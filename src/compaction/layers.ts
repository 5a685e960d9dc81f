import type { Message } from '../messages/types.js';
import { pruneThenFold } from './next-step.js';
import { pruneReasoningLayer } from './prune-reasoning.js';
import type { CompactionInput, CompactionResult, CompactionStrategy } from './types.js';

/**
 * The opt-in layers around a strategy. None is on by default: the hook then runs the
 * strategy exactly as it is. Each is a strategy that wraps another, so what runs is visible
 * where it is built (see {@link withLayers}).
 */
export interface CompactionLayers {
  /**
   * Aim lower than the threshold: the strategy is asked to get the request under this share
   * of the threshold (a summary is still judged against the threshold itself), so the next
   * compaction comes later. Pick it with a summarizer on a long run, where every compaction
   * re-sends the transcript after its first change: fewer, larger compactions cost less.
   */
  lowWaterMark?: number;
  /**
   * Fold the oldest turns into one short marker turn (their calls listed, their text gone)
   * when a compaction leaves the request above the low-water mark (`lowWaterMark`, else half
   * the threshold), down to it. No model call. Pick it for long runs without a summarizer,
   * where pruning alone leaves every turn and marker in place and each crossing of the
   * threshold comes sooner than the last.
   */
  fold?: boolean;
  /**
   * Apply a compaction only when it frees at least this share of the threshold; else leave
   * the transcript as it is and wait until the request has grown by what was missing. Pick
   * it when the prompt cache matters: a compaction that frees little breaks the cache for
   * little.
   */
  minimumGain?: number;
  /**
   * When a compaction runs, also prune the reasoning of the turns before the newest (outside
   * the protected tail): signed or encrypted reasoning (Anthropic thinking, OpenAI reasoning
   * items) is dropped, plain reasoning text (DeepSeek, OpenRouter) becomes a short marker; the
   * newest turn's reasoning, which a provider needs to continue a tool-using turn, stays.
   * Pick it with reasoning models whose old reasoning is sent back and billed as input.
   */
  pruneReasoning?: boolean;
}

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
      if (result.summary !== undefined) return result;
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
  // Per transcript: the hook compacts the run's own message list, the same array at every step.
  const retryAbove = new WeakMap<readonly Message[], number>();
  return {
    ...strategy,
    async compact(input) {
      const before = input.estimateTokens(input.messages);
      const wait = retryAbove.get(input.messages);
      if (wait !== undefined && before < wait) return unchanged(input, before);
      const result = await strategy.compact(input);
      const after = result.messages === input.messages ? before : input.estimateTokens(result.messages);
      const needed = share(input, minimumGain);
      if (before - after >= needed) {
        retryAbove.delete(input.messages);
        return result;
      }
      retryAbove.set(input.messages, before + needed - (before - after));
      return unchanged(input, before, result.error);
    },
  };
}

/**
 * The strategy with the layers that are on, in one fixed order: the reasoning prune (part of
 * what the strategy frees), the low-water mark (ask for less), the fold (go further), the
 * minimum gain (refuse too little). With no layer on, the strategy itself.
 */
export function withLayers(strategy: CompactionStrategy, layers: CompactionLayers): CompactionStrategy {
  let layered = layers.pruneReasoning === true ? pruneReasoningLayer(strategy) : strategy;
  if (layers.lowWaterMark !== undefined) layered = lowWaterMarkLayer(layered, layers.lowWaterMark);
  if (layers.fold === true) layered = foldLayer(layered, layers.lowWaterMark);
  if (layers.minimumGain !== undefined) layered = minimumGainLayer(layered, layers.minimumGain);
  return layered;
}
