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
  /**
   * Prompt tokens written to the provider's prompt cache on this call (a part of inputTokens,
   * apart from cachedInputTokens); Anthropic bills them above the input price. Absent or
   * undefined when the provider did not report them.
   */
  cacheWriteInputTokens?: number | undefined;
  /** Reply tokens the model spent reasoning (a part of outputTokens); absent or undefined when not reported. */
  reasoningTokens?: number | undefined;
}
