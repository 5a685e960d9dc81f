import type { Usage } from '../contracts/usage.js';

/** The usage object of a chat completion (and of the last chunk of a stream with include_usage). */
export interface OpenAIChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

/** Chat-completions usage in our terms; what the server did not report stays undefined. */
export function openAIUsage(usage: OpenAIChatUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens,
    outputTokens: usage?.completion_tokens,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? undefined,
  };
}
