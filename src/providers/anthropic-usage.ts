import type { Usage } from '../contracts/usage.js';
import type { AnthropicUsage } from './anthropic-api-types.js';

/** The token counts of a Messages API usage object. */
export const ANTHROPIC_USAGE_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
] as const;

const count = (n: number | null | undefined): number | undefined => (typeof n === 'number' ? n : undefined);

/**
 * Messages API usage in our terms: input counts the cache reads and writes too, cached is
 * the reads, cacheWrite the writes (billed at 1.25x); reasoning is
 * `output_tokens_details.thinking_tokens` where the API reports it (thinking is billed inside
 * output_tokens either way); unknown is undefined.
 */
export function anthropicUsage(usage: AnthropicUsage | null | undefined): Usage {
  const input = count(usage?.input_tokens);
  const read = count(usage?.cache_read_input_tokens);
  const written = count(usage?.cache_creation_input_tokens);
  const thinking = count(usage?.output_tokens_details?.thinking_tokens);
  return {
    inputTokens: input === undefined ? undefined : input + (read ?? 0) + (written ?? 0),
    outputTokens: count(usage?.output_tokens),
    cachedInputTokens: read,
    ...(written === undefined ? {} : { cacheWriteInputTokens: written }),
    ...(thinking === undefined ? {} : { reasoningTokens: thinking }),
  };
}
