import type { Message } from '../messages/types.js';
import type { JSONSchema } from './json-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * How much a reasoning model may think before it answers. Each provider reads the field its
 * model takes: OpenAI (Responses and Chat Completions) `effort`; Anthropic `effort` as
 * adaptive thinking with `output_config.effort` on the models that take it (Opus 4.6, Sonnet
 * 4.6 and later; the effort alone on Opus 4.5) and `budgetTokens` as extended thinking where
 * the model still takes a budget (it is refused, naming effort, on a model that thinks only
 * adaptively). A provider or model that takes neither ignores both.
 */
export interface ReasoningOptions {
  /**
   * OpenAI's reasoning effort (`reasoning.effort` in Responses, `reasoning_effort` in Chat
   * Completions, `reasoning.effort` through OpenRouter). Which values a model takes is the
   * vendor's rule ('none' from gpt-5.1 on, 'xhigh' on the newest; the o-series take low to high).
   */
  effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  /**
   * Anthropic's extended thinking budget in tokens (`thinking.budget_tokens`, at least 1024),
   * for the models that take one (Claude 4 to 4.6); given with `effort`, a model that thinks
   * adaptively gets the effort.
   */
  budgetTokens?: number;
}

/** One call to a model. */
export interface ModelRequest {
  /** The model id, e.g. 'gpt-4o'; used for the context-window lookup and the token estimator. */
  model: string;
  /** The transcript, the system prompt included. `metadata` is never sent. */
  messages: Message[];
  /** The tools the model may call. */
  tools?: ToolDefinition[];
  /** When set, the model must answer with JSON matching this schema. */
  outputSchema?: JSONSchema;
  /** Most tokens the reply may have (the run-wide budget is `limits.maxTokens`). */
  maxOutputTokens?: number;
  /** Sampling temperature, when the model takes one. */
  temperature?: number;
  /** Reasoning (extended thinking, reasoning effort) for this call; the provider's default when absent. */
  reasoning?: ReasoningOptions;
  /**
   * A key that stays the same over a run or a session, sent where the provider routes its
   * prompt cache by one (OpenAI's `prompt_cache_key`). The step loop sets the run's id.
   */
  cacheKey?: string;
  /** Aborts the HTTP request (and stream) when it fires. */
  abortSignal?: AbortSignal;
}
