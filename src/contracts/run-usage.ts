import type { ModelCall } from './model-call.js';

/** Token and cost totals of one model within a run. */
export interface ModelUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** USD, when the model's price is known. */
  costUsd: number | undefined;
}

/** Token and cost totals of a run, over every model call (the summarizer's included). */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens: number;
  /** USD over the calls whose price is known; undefined when none is. */
  costUsd: number | undefined;
  /** Totals per model id. */
  byModel: Record<string, ModelUsage>;
  /** Every model call, in order. */
  modelCalls: ModelCall[];
}
