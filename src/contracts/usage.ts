/**
 * Token counts a provider reported for one call. Unknown is `undefined`, never zero.
 *
 * The counts nest the way OpenAI reports them, whatever the vendor's own form: `inputTokens`
 * holds the cache reads and writes, `outputTokens` holds the reasoning. A provider whose API
 * reports a part beside the total instead (Anthropic's `input_tokens` leaves the cache out;
 * xAI's `completion_tokens` leaves the reasoning out) adds it in, so a price per kind of
 * token can be applied to each part without counting any token twice (see the model table's
 * prices).
 */
export interface Usage {
  /** Prompt tokens, cache reads and cache writes included. */
  inputTokens: number | undefined;
  /**
   * Reply tokens, reasoning included, whatever the vendor's own form (OpenAI and Anthropic
   * count the reasoning inside their output count; xAI's `completion_tokens` leaves it out,
   * so its reasoning tokens are added here, and priced at the output price as xAI bills them).
   */
  outputTokens: number | undefined;
  /**
   * Prompt tokens served from the provider's prompt cache (a part of inputTokens): OpenAI's
   * `cached_tokens`, Anthropic's `cache_read_input_tokens`.
   */
  cachedInputTokens: number | undefined;
  /**
   * Prompt tokens written to the provider's prompt cache on this call (a part of inputTokens,
   * apart from cachedInputTokens): Anthropic's `cache_creation_input_tokens`, OpenRouter's
   * `cache_write_tokens`, billed above the input price. Absent or undefined when the provider
   * did not report them (OpenAI does not bill writes and does not report them).
   */
  cacheWriteInputTokens?: number | undefined;
  /**
   * The part of cacheWriteInputTokens written to the one-hour cache (Anthropic's
   * `cache_creation.ephemeral_1h_input_tokens`), billed at 2x the input price where the
   * 5-minute writes are billed at 1.25x. Absent or undefined when not reported.
   */
  cacheWrite1hInputTokens?: number | undefined;
  /**
   * Reply tokens the model spent reasoning (a part of outputTokens, billed at the output
   * price): OpenAI's `reasoning_tokens`, Anthropic's `thinking_tokens`. Absent or undefined
   * when not reported.
   */
  reasoningTokens?: number | undefined;
  /**
   * The sampling iterations of this one request, when the provider ran several and reports
   * each (Anthropic's `usage.iterations`: a server-side compaction before the answer, a
   * server-side fallback to another model): the counts above are their sum, and each is
   * priced on its own, at its own model's prices (`model`, else the call's) and tier.
   */
  iterations?: { model?: string | undefined; usage: Usage }[] | undefined;
}
