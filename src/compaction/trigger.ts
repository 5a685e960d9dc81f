/**
 * The trigger arithmetic of the compaction hook, as pure functions.
 */

/** The hook's calibration after a call: how far the provider's prompt count exceeded the raw estimate (never negative). */
export function calibrationAfterCall(
  reportedInputTokens: number | undefined,
  rawEstimate: number | undefined,
  previous: number,
): number {
  if (reportedInputTokens === undefined || rawEstimate === undefined) return previous;
  return Math.max(0, reportedInputTokens - rawEstimate);
}

/**
 * Where the context window comes from, in order: the feature's option, a model the user
 * registered, the serving provider (a local server), the built-in table, the fallback.
 */
export type WindowSource = 'option' | 'registered' | 'provider' | 'registry' | 'fallback';

/** Picks the first known window in the documented order. */
export function pickContextWindow(
  candidates: {
    option?: number | undefined;
    registered?: number | undefined;
    provider?: number | undefined;
    registry?: number | undefined;
  },
  fallback: number,
): { contextWindow: number; source: WindowSource } {
  if (candidates.option !== undefined) return { contextWindow: candidates.option, source: 'option' };
  if (candidates.registered !== undefined) return { contextWindow: candidates.registered, source: 'registered' };
  if (candidates.provider !== undefined && candidates.provider > 0) {
    return { contextWindow: candidates.provider, source: 'provider' };
  }
  if (candidates.registry !== undefined) return { contextWindow: candidates.registry, source: 'registry' };
  return { contextWindow: fallback, source: 'fallback' };
}

/** True when a summary must be rejected: it left the request above the threshold, or made it larger. */
export function rejectSummary(tokensBefore: number, tokensAfter: number, thresholdTokens: number): boolean {
  return tokensAfter > thresholdTokens || tokensAfter > tokensBefore;
}

/** While summaries are paused after a rejection: until the transcript has twice as many messages. */
export function summariesPaused(pausedUntilMessages: number | undefined, messageCount: number): boolean {
  return pausedUntilMessages !== undefined && messageCount < pausedUntilMessages;
}
