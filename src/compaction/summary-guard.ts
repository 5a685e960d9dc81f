import { LoushoError } from '../errors/lousho-error.js';
import { type CompactionResult, type CompactionStrategy, layered, type TranscriptAt, transcriptOf } from './types.js';

/** True when a summary must be rejected: it left the request above the threshold, or made it larger. */
export function rejectSummary(tokensBefore: number, tokensAfter: number, thresholdTokens: number): boolean {
  return tokensAfter > thresholdTokens || tokensAfter > tokensBefore;
}

/** The transcript length until which summaries are paused after a rejection at `length` messages: twice as many. */
export function pauseUntil(length: number): number {
  return length * 2;
}

const n = (value: number) => value.toLocaleString('en-US');

function rejection(strategy: string, tokensBefore: number, tokensAfter: number, thresholdTokens: number): LoushoError {
  return new LoushoError(
    'LOUSHO_SUMMARY_REJECTED',
    tokensAfter > tokensBefore
      ? `The summary was rejected: it made the request larger (${n(tokensBefore)} -> ${n(tokensAfter)} tokens). Kept the pruned conversation.`
      : `The summary was rejected: the request is still ${n(tokensAfter)} tokens, above the threshold of ${n(thresholdTokens)}. Kept the pruned conversation.`,
    { details: { strategy, tokensBefore, tokensAfter, thresholdTokens } },
  );
}

/**
 * The summary rule, the layer withLayers() puts around every strategy that summarizes (one
 * with a `fallback`), on every path: a summary that leaves
 * the request above the threshold, or makes it larger, is rejected (LOUSHO_SUMMARY_REJECTED
 * as the result's error) and `prune`, the strategy's own prune step, kept instead; after a
 * rejection or a summary that failed, only `prune` runs (and names itself) until the
 * transcript has twice as many messages, so a summarizer that cannot help costs a few calls
 * per run, not one per step, and one rejected for having too little to fold gets another
 * chance. The pause is per transcript.
 */
export function summaryGuard(summarizing: CompactionStrategy, prune: CompactionStrategy): CompactionStrategy {
  const pausedUntil = new WeakMap<object, number>();
  const paused = (at: TranscriptAt) => {
    const until = pausedUntil.get(transcriptOf(at));
    if (until !== undefined && at.messages.length >= until) pausedUntil.delete(transcriptOf(at));
    return until !== undefined && at.messages.length < until;
  };
  const guarded = layered(
    summarizing,
    async (input): Promise<CompactionResult> => {
      if (paused(input)) return prune.compact(input);
      const pause = () => pausedUntil.set(transcriptOf(input), pauseUntil(input.messages.length));
      let result: CompactionResult;
      try {
        result = await summarizing.compact(input);
      } catch (error) {
        pause();
        throw error;
      }
      if (result.error !== undefined) pause();
      if (result.summary === undefined) return result;
      const before = input.estimateTokens(input.messages);
      const after = result.messages === input.messages ? result.tokensBefore : input.estimateTokens(result.messages);
      if (!rejectSummary(before, after, input.thresholdTokens)) return result;
      if (result.error === undefined) pause();
      const error = rejection(summarizing.name, before, after, input.thresholdTokens);
      const kept = await prune.compact(input);
      return { ...kept, error, appliedStrategy: prune.name };
    },
    { running: (at) => (paused(at) ? prune.name : (summarizing.running?.(at) ?? summarizing.name)) },
  );
  return { ...guarded, fallback: prune };
}
