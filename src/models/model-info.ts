/** The BPE vocabulary used to count a model's tokens. Non-OpenAI models are approximated with o200k. */
export type TokenizerName = 'o200k' | 'cl100k';

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
