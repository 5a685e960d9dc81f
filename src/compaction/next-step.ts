import { FOLD_STEP_NAME, foldTurns } from './fold-turns.js';
import { pruneToolResults } from './prune-tool-results.js';
import type { CompactionInput, CompactionResult } from './types.js';

/** Characters a fold marker's list of calls may take: a tenth of the low-water mark's tokens, 300 to 2,000. */
export function foldMarkerChars(lowWaterTokens: number): number {
  return Math.min(2_000, Math.max(300, Math.floor(lowWaterTokens / 10)));
}

/**
 * The step after pruning, when pruning alone leaves the request above the threshold (or
 * frees too little to pay for the cache it breaks): prune what is left outside the
 * protected tail, then fold the oldest turns, whose results are markers by then, into one
 * short marker turn until the request is at or below `lowWaterTokens`. No model call.
 * Returns the input array when it changes nothing.
 */
export function pruneThenFold(input: CompactionInput, lowWaterTokens: number): CompactionResult {
  const pruned = pruneToolResults(input);
  const folded = foldTurns({ ...input, messages: pruned.messages }, lowWaterTokens, foldMarkerChars(lowWaterTokens));
  if (folded.messages === pruned.messages) return pruned;
  return {
    ...folded,
    tokensBefore: pruned.tokensBefore,
    prunedToolCallIds: pruned.prunedToolCallIds,
    appliedStrategy: FOLD_STEP_NAME,
  };
}
