/**
 * The invariants every compaction strategy keeps, checked on one random scenario through
 * compactMessages() (the one runner): the transcript stays valid (every call with one
 * result), system and pinned messages stay verbatim and in order, the input is not
 * changed, the result is never larger, and it is under the threshold whenever the
 * strategy's own rules can get it there. Used by the property test and `npm run fuzz`.
 */
import { isDeepStrictEqual } from 'node:util';
import { compactMessages } from '../compaction/compact-messages.js';
import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { pruneToolResults, pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import { effectiveProtectedTokens } from '../compaction/sizes.js';
import { summarizeStrategy, summaryMessage } from '../compaction/summarize.js';
import { applySummary, planSummary } from '../compaction/summary-plan.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { CompactionStrategy } from '../compaction/types.js';
import { TruncatingSummarizer } from '../core/summarizer.js';
import { isPinned } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { mockModel } from '../testing/mock-model.js';
import type { Scenario } from './compaction-scenarios.js';

export const STRATEGY_KINDS = ['prune', 'summarize', 'two-phase', 'compactor'] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

const SUMMARY = 'a short summary';

function strategyOf(kind: StrategyKind): CompactionStrategy {
  if (kind === 'prune') return pruneToolResultsStrategy();
  if (kind === 'compactor')
    return compactorStrategy({ summarizer: new TruncatingSummarizer<Message>({ maxChars: 200 }) });
  const model = mockModel(() => SUMMARY);
  return kind === 'summarize' ? summarizeStrategy({ model }) : twoPhaseStrategy({ model });
}

function sizes(s: Scenario) {
  const byShare = Math.floor(s.contextWindow * (s.thresholdPercent ?? 0.9));
  const thresholdTokens = Math.max(1, Math.min(byShare, s.contextWindow));
  return {
    thresholdTokens,
    protectedTokens: effectiveProtectedTokens(s.protectedTokens, thresholdTokens).protectedTokens,
  };
}

/** The smallest request the strategy's own rules allow, or undefined when the check does not apply. */
function best(kind: StrategyKind, s: Scenario): number | undefined {
  const { thresholdTokens, protectedTokens } = sizes(s);
  const input = {
    messages: s.messages,
    estimateTokens: (list: readonly Message[]) => estimateTokens(list),
    countMessage: (m: Message) => messageTokens(m),
    contextWindow: s.contextWindow,
    protectedTokens,
    thresholdTokens,
  };
  const pruned = pruneToolResults(input);
  if (kind === 'prune') return pruned.tokensAfter;
  if (kind === 'compactor') return undefined;
  const summarizedFrom = (source: readonly Message[]) => {
    const summarized = planSummary(source, protectedTokens, (m) => messageTokens(m));
    return summarized.length === 0
      ? undefined
      : estimateTokens(applySummary(source, summarized, summaryMessage(SUMMARY)));
  };
  const summarized = summarizedFrom(s.messages);
  if (kind === 'summarize') return summarized ?? estimateTokens(s.messages);
  // Two-phase does at least as well as either of its phases alone: pruning, or a summary of the
  // turns before the protected tail (it reads them pruned).
  return Math.min(
    pruned.tokensAfter,
    summarized ?? Number.POSITIVE_INFINITY,
    summarizedFrom(pruned.messages) ?? Number.POSITIVE_INFINITY,
  );
}

/** What one check found: a problem in words, or none; and whether the threshold was reachable. */
export interface InvariantReport {
  problem: string | undefined;
  reachable: boolean;
}

/** Runs one strategy on one scenario and checks every invariant. */
export async function checkInvariants(kind: StrategyKind, s: Scenario): Promise<InvariantReport> {
  const before = structuredClone(s.messages);
  const result = await compactMessages(s.messages, {
    strategy: strategyOf(kind),
    contextWindow: s.contextWindow,
    ...(s.protectedTokens === undefined ? {} : { protectedTokens: s.protectedTokens }),
    ...(s.thresholdPercent === undefined ? {} : { thresholdPercent: s.thresholdPercent }),
  });
  const fail = (problem: string, reachable = false): InvariantReport => ({ problem: `${kind}: ${problem}`, reachable });
  try {
    validateMessages(result.messages);
  } catch (error) {
    return fail(`the result is not a valid transcript: ${(error as Error).message}`);
  }
  const kept = (list: readonly Message[]) => list.filter((m) => m.role === 'system' || isPinned(m));
  if (!isDeepStrictEqual(kept(result.messages), kept(before)))
    return fail('a system or pinned message changed or moved');
  if (!isDeepStrictEqual(s.messages, before)) return fail('the input was changed');
  const tokensBefore = estimateTokens(before);
  const tokensAfter = estimateTokens(result.messages);
  if (tokensAfter > tokensBefore) return fail(`the result is larger (${tokensBefore} -> ${tokensAfter} tokens)`);
  const { thresholdTokens } = sizes(s);
  const bound = best(kind, s);
  const reachable = bound !== undefined && bound <= thresholdTokens;
  if (reachable && tokensAfter > thresholdTokens) {
    return fail(
      `the threshold (${thresholdTokens}) was reachable (${bound}) but the result has ${tokensAfter} tokens`,
      true,
    );
  }
  return { problem: undefined, reachable };
}
