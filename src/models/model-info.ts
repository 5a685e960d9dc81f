/** The BPE vocabulary used to count a model's tokens. Non-OpenAI models are approximated with o200k. */
export type TokenizerName = 'o200k' | 'cl100k';

/**
 * A vendor's price for the whole of a request whose prompt is long (Anthropic's and Google's
 * long-context prices, OpenAI's above 272K): when the request's input tokens, cache reads and
 * writes included, are above `aboveInputTokens`, every token of it (output too) is priced here.
 * A cache price left out falls back as the base prices do.
 */
export interface LongContextPrice {
  /** The tier applies to a request with more input tokens than this. */
  aboveInputTokens: number;
  /** USD per million input tokens in the tier. */
  inputPricePerMillion: number;
  /** USD per million output tokens in the tier. */
  outputPricePerMillion: number;
  /** USD per million cached input tokens in the tier. */
  cachedInputPricePerMillion?: number;
  /** USD per million tokens written to the 5-minute cache in the tier. */
  cacheWriteInputPricePerMillion?: number;
  /** USD per million tokens written to the one-hour cache in the tier. */
  cacheWrite1hInputPricePerMillion?: number;
}

/** What the library knows about a model. */
export interface ModelInfo {
  /** The model's id without a provider prefix, e.g. 'gpt-4o'. */
  id: string;
  /** The vendor, e.g. 'openai', 'anthropic', 'ollama'. */
  provider: string;
  /** Context window in tokens (prompt and reply together). */
  contextWindow: number;
  /** Most tokens one reply may have, when known. */
  maxOutputTokens?: number;
  /** USD per million input tokens, when known. */
  inputPricePerMillion?: number;
  /** USD per million output tokens, when known. */
  outputPricePerMillion?: number;
  /** USD per million cached input tokens, when the provider bills them apart. */
  cachedInputPricePerMillion?: number;
  /**
   * USD per million input tokens written to the prompt cache, when the provider bills them
   * apart (Anthropic: 1.25x the input price for the default 5-minute cache).
   */
  cacheWriteInputPricePerMillion?: number;
  /**
   * USD per million input tokens written to the one-hour prompt cache (Anthropic: 2x the input
   * price); writes the provider reports as one-hour writes are priced here, the rest at
   * cacheWriteInputPricePerMillion.
   */
  cacheWrite1hInputPricePerMillion?: number;
  /** The price of a request whose prompt is long, where the vendor has one (see {@link LongContextPrice}). */
  longContext?: LongContextPrice;
  /**
   * The shortest prompt prefix the provider caches (Anthropic: 1,024 to 4,096 tokens by model);
   * a cache breakpoint on a shorter prefix writes nothing and reads nothing.
   */
  minCacheableTokens?: number;
  /** The day the prices were read from the vendor's page (YYYY-MM-DD), for the built-in table. */
  pricesReadOn?: string;
  /** The tokenizer the estimator uses for this model; 'o200k' when not given. */
  tokenizer?: TokenizerName;
  /**
   * Tokens the provider adds to every request of this model beyond its messages, tool
   * definitions and the chat format's framing (a system header of its own), which
   * estimateTokens adds once per request; 0 when not given. The built-in value for the
   * GPT-5 family was measured on real gpt-5-mini calls (see the model table).
   */
  requestOverheadTokens?: number;
}
