/**
 * The trigger arithmetic of the compaction hook, as pure functions.
 */

/** The hook's calibration after a call: how far the provider's prompt count exceeded the raw estimate (never negative). */
export function calibrationAfterCall(
  reportedInputTokens: number | undefined,
  rawEstimate: number,
  previous: number,
): number {
  if (reportedInputTokens === undefined) return previous;
  return Math.max(0, reportedInputTokens - rawEstimate);
}

/** True when a summary must be rejected: it left the request above the threshold, or made it larger. */
export function rejectSummary(tokensBefore: number, tokensAfter: number, thresholdTokens: number): boolean {
  return tokensAfter > thresholdTokens || tokensAfter > tokensBefore;
}

/** While summaries are paused after a rejection: until the transcript has `pausedUntilMessages` messages. */
export function summariesPaused(pausedUntilMessages: number | undefined, transcriptLength: number): boolean {
  return pausedUntilMessages !== undefined && transcriptLength < pausedUntilMessages;
}

/** The transcript length until which summaries are paused after a rejection at `length` messages: twice as many. */
export function pauseUntil(length: number): number {
  return length * 2;
}

/** The share of its target that a request that does not fit the window is compacted down to by the overflow recovery. */
export const FIT_LOW_WATER_PERCENT = 0.6;
