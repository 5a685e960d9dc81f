import type { Usage } from '../contracts/usage.js';

/**
 * The usage object of a chat completion (and of the last chunk of a stream with
 * include_usage), with the fields each vendor adds: OpenRouter's `cache_write_tokens`,
 * DeepSeek's `prompt_cache_hit_tokens`.
 */
export interface OpenAIChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek: prompt tokens served from its disk cache (it also reports cached_tokens). */
  prompt_cache_hit_tokens?: number | null;
}

const count = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);

/**
 * Chat-completions usage in our terms; what the server did not report stays undefined.
 * Cache reads are `cached_tokens` (DeepSeek's `prompt_cache_hit_tokens` when that is
 * missing), cache writes OpenRouter's `cache_write_tokens`, reasoning `reasoning_tokens`.
 * Most servers count the reasoning inside completion_tokens, as OpenAI does; xAI counts it
 * beside them (its total_tokens is prompt + completion + reasoning), so there it is added to
 * the output, which is how xAI bills it.
 */
export function openAIUsage(usage: OpenAIChatUsage | null | undefined): Usage {
  const prompt = count(usage?.prompt_tokens);
  const completion = count(usage?.completion_tokens);
  const total = count(usage?.total_tokens);
  const reasoning = count(usage?.completion_tokens_details?.reasoning_tokens);
  const written = count(usage?.prompt_tokens_details?.cache_write_tokens);
  const reasoningBeside =
    prompt !== undefined &&
    completion !== undefined &&
    reasoning !== undefined &&
    reasoning > 0 &&
    total === prompt + completion + reasoning;
  return {
    inputTokens: prompt,
    outputTokens: reasoningBeside ? completion + reasoning : completion,
    cachedInputTokens: count(usage?.prompt_tokens_details?.cached_tokens) ?? count(usage?.prompt_cache_hit_tokens),
    ...(written === undefined ? {} : { cacheWriteInputTokens: written }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}
