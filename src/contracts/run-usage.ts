import type { ModelCall } from './model-call.js';

/** Token and cost totals of one model within a run. */
export interface ModelUsage {
  /** Model calls made with this model. */
  calls: number;
  /** Prompt tokens, cached ones included (a count the provider did not report adds 0). */
  inputTokens: number;
  /** Reply tokens, reasoning included. */
  outputTokens: number;
  /** Prompt tokens served from the provider's prompt cache (a part of inputTokens). */
  cachedInputTokens: number;
  /** Prompt tokens written to the provider's prompt cache (a part of inputTokens, apart from the cached ones). */
  cacheWriteInputTokens: number;
  /** Reply tokens spent reasoning (a part of outputTokens). */
  reasoningTokens: number;
  /** USD, when the model's price is known. */
  costUsd: number | undefined;
}

/** Token and cost totals of a run, over every model call (the summarizer's included). */
export interface RunUsage {
  /** Prompt tokens, cached ones included (a count the provider did not report adds 0). */
  inputTokens: number;
  /** Reply tokens, reasoning included. */
  outputTokens: number;
  /** inputTokens plus outputTokens. */
  totalTokens: number;
  /** Prompt tokens served from the provider's prompt cache (a part of inputTokens). */
  cachedInputTokens: number;
  /** Prompt tokens written to the provider's prompt cache (a part of inputTokens, apart from the cached ones). */
  cacheWriteInputTokens: number;
  /** Reply tokens spent reasoning (a part of outputTokens). */
  reasoningTokens: number;
  /** USD over the calls whose price is known; undefined when none is. */
  costUsd: number | undefined;
  /** Totals per model id. */
  byModel: Record<string, ModelUsage>;
  /** Every model call, in order. */
  modelCalls: ModelCall[];
}
