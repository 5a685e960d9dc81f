/**
 * Token counts a provider reported for one call. Unknown is `undefined`, never zero.
 */
export interface Usage {
  /** Prompt tokens, cached ones included. */
  inputTokens: number | undefined;
  /** Reply tokens, reasoning included. */
  outputTokens: number | undefined;
  /** Prompt tokens served from the provider's prompt cache (a part of inputTokens). */
  cachedInputTokens: number | undefined;
}
