import { compactorStrategy } from './compactor-strategy.js';
import { pruneThenFold } from './next-step.js';
import { FIT_LOW_WATER_PERCENT } from './trigger.js';
import type { CompactionResult, CompactionStrategy } from './types.js';

/** The name the overflow recovery reports in its compaction events and onCompaction. */
export const OVERFLOW_RECOVERY_NAME = 'overflow-recovery';

/**
 * The recovery of a request too long for the context window (it runs only then, never while
 * the request fits): no model call; `thresholdTokens` is the size it must get under. It
 * prunes old results (at most half of that size protected), folds the oldest turns into one
 * marker turn down to FIT_LOW_WATER_PERCENT of it, so the next steps have room and the run is
 * not cut to a few hundred tokens, and only if that is not enough drains and truncates the
 * oldest turns with the core Compactor. System and pinned messages are never touched.
 */
export function overflowRecoveryStrategy(): CompactionStrategy {
  const drain = compactorStrategy();
  return {
    name: OVERFLOW_RECOVERY_NAME,
    async compact(input): Promise<CompactionResult> {
      const target = input.thresholdTokens;
      const protectedTokens = Math.min(input.protectedTokens, Math.floor(target / 2));
      const fitted = { ...input, protectedTokens };
      const folded = pruneThenFold(fitted, Math.max(1, Math.floor(target * FIT_LOW_WATER_PERCENT)));
      const size = folded.messages === input.messages ? folded.tokensBefore : input.estimateTokens(folded.messages);
      if (size <= target) return folded;
      // The drain's truncated head is a recovery, not a summary to judge against a threshold.
      const { summary: _truncated, ...drained } = await drain.compact({ ...fitted, messages: folded.messages });
      if (drained.messages === folded.messages) return folded;
      return {
        ...drained,
        tokensBefore: folded.tokensBefore,
        prunedToolCallIds: folded.prunedToolCallIds,
        appliedStrategy: drain.name,
      };
    },
  };
}
