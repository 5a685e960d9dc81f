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
  /** The tokenizer the estimator uses for this model; 'o200k' when not given. */
  tokenizer?: TokenizerName;
}
