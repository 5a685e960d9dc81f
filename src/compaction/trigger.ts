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

/** While summaries are paused after a rejection: until the transcript has twice as many messages. */
export function summariesPaused(pausedUntilMessages: number | undefined, messageCount: number): boolean {
  return pausedUntilMessages !== undefined && messageCount < pausedUntilMessages;
}

/** The share of the threshold that the hook's next step (folding old turns) compacts down to: its low-water mark. */
export const LOW_WATER_PERCENT = 0.5;
/** The smallest gain, as a share of the threshold, worth breaking the prompt cache for. */
export const MIN_GAIN_PERCENT = 0.1;

/** The low-water mark and the minimum gain of a threshold, in tokens. */
export function nextStepSizes(thresholdTokens: number): {
  lowWaterTokens: number;
  minGainTokens: number;
  foldAbove?: number;
} {
  return {
    lowWaterTokens: Math.max(1, Math.floor(thresholdTokens * LOW_WATER_PERCENT)),
    minGainTokens: Math.floor(thresholdTokens * MIN_GAIN_PERCENT),
  };
}

/** The share of its target that a request that does not fit is compacted down to (oldest turns first). */
export const FIT_LOW_WATER_PERCENT = 0.6;
