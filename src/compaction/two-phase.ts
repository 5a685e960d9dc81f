import type { Message } from '../messages/types.js';
import { ownPruneStrategy, PRUNE_STRATEGY_NAME, pruneToolResults } from './prune-tool-results.js';
import { ownProtectedTokens } from './sizes.js';
import {
  lazyProvider,
  SUMMARIZE_STRATEGY_NAME,
  type SummarizeStrategyOptions,
  summarizeOrPrune,
  validateSummarizeOptions,
} from './summarize.js';
import { type CompactionStrategy, messageCounter } from './types.js';

/** The name twoPhaseStrategy() reports in compaction events. */
export const TWO_PHASE_STRATEGY_NAME = 'two-phase';

/**
 * Prunes old tool results first (free), and summarizes old turns only when the pruned
 * conversation is still above the threshold. The summarizer reads the pruned
 * conversation; if it fails, the pruned conversation is kept and `error` is reported.
 * Takes the same options as summarizeStrategy(). The recommended strategy.
 *
 * @example
 * createCompactionHook({ strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) });
 */
export function twoPhaseStrategy(options: SummarizeStrategyOptions): CompactionStrategy {
  validateSummarizeOptions(options, 'twoPhaseStrategy');
  const getProvider = lazyProvider(options.model);
  return {
    name: TWO_PHASE_STRATEGY_NAME,
    fallback: ownPruneStrategy(options.protectedTokens),
    async compact(input) {
      const protectedTokens = ownProtectedTokens(options.protectedTokens, input);
      const pruned = pruneToolResults({ ...input, protectedTokens });
      if (pruned.tokensAfter <= input.thresholdTokens) return { ...pruned, appliedStrategy: PRUNE_STRATEGY_NAME };
      // The protected tail is the one pruning kept, measured as the messages came in: measured on the
      // pruned ones, whose markers are small, it would reach back over turns a summary could fold.
      const original = new Map(pruned.messages.map((m, i) => [m, input.messages[i] ?? m]));
      const count = messageCounter(input);
      const countMessage = (m: Message) => count(original.get(m) ?? m);
      const summarized = await summarizeOrPrune(
        { ...input, messages: pruned.messages, countMessage },
        options,
        getProvider,
      );
      const prunedToolCallIds = [...pruned.prunedToolCallIds, ...summarized.prunedToolCallIds];
      const result = { ...summarized, tokensBefore: pruned.tokensBefore, prunedToolCallIds };
      result.appliedStrategy = summarized.summary === undefined ? PRUNE_STRATEGY_NAME : SUMMARIZE_STRATEGY_NAME;
      // Nothing changed at all: hand back the caller's own array.
      if (result.messages === pruned.messages && pruned.messages === input.messages) result.messages = input.messages;
      return result;
    },
  };
}
