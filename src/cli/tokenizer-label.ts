import { tokenProfile } from '../models/estimate-tokens.js';
import { getModelInfo } from '../models/registry.js';

/** Which tokenizer counted a model's tokens, and whether the count is exact for that model. */
export interface TokenizerLabel {
  tokenizer: string;
  /** True when the tokenizer is the model's own (OpenAI's models); message framing is still an estimate. */
  exact: boolean;
  /** In words, for the chart's label. */
  text: string;
}

/**
 * The tokenizer the estimator uses for `model`: OpenAI's own BPE (o200k or cl100k) counts
 * OpenAI models' text exactly; every other model (Anthropic, Llama, Qwen, an unknown id) is
 * counted with o200k as an approximation, since its own tokenizer differs.
 */
export function tokenizerLabel(model: string): TokenizerLabel {
  const { tokenizer } = tokenProfile(model);
  const info = getModelInfo(model);
  const exact = info?.provider === 'openai';
  const text = exact
    ? `${tokenizer} tokenizer, ${model}'s own: exact text counts (message framing estimated)`
    : `${tokenizer} tokenizer as an approximation for ${model}${info === undefined ? ' (an unknown model)' : ''}: its own tokenizer differs`;
  return { tokenizer, exact, text };
}
