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

/** One usage object (a whole reply's, or one iteration's) in our terms, without iterations. */
function flatUsage(usage: AnthropicUsage | null | undefined): Usage {
  const input = count(usage?.input_tokens);
  const read = count(usage?.cache_read_input_tokens);
  const written = count(usage?.cache_creation_input_tokens);
  const hour = count(usage?.cache_creation?.ephemeral_1h_input_tokens);
  const thinking = count(usage?.output_tokens_details?.thinking_tokens);
  return {
    inputTokens: input === undefined ? undefined : input + (read ?? 0) + (written ?? 0),
    outputTokens: count(usage?.output_tokens),
    cachedInputTokens: read,
    ...(written === undefined ? {} : { cacheWriteInputTokens: written }),
    ...(hour === undefined || hour === 0 ? {} : { cacheWrite1hInputTokens: hour }),
    ...(thinking === undefined ? {} : { reasoningTokens: thinking }),
  };
}

const sum = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);

/**
 * Messages API usage in our terms: input counts the cache reads and writes too, cached is
 * the reads, cacheWrite the writes (cacheWrite1h the one-hour part, from
 * `cache_creation.ephemeral_1h_input_tokens`); reasoning is
 * `output_tokens_details.thinking_tokens` where the API reports it (thinking is billed inside
 * output_tokens either way); unknown is undefined. A reply with `iterations` (a server-side
 * compaction, a server-side fallback) is billed for every iteration, and its top-level counts
 * are the last one's only: the counts are the iterations' sum, each kept with its model.
 */
export function anthropicUsage(usage: AnthropicUsage | null | undefined): Usage {
  const iterations = usage?.iterations ?? [];
  if (iterations.length === 0) return flatUsage(usage);
  const parts = iterations.map((i) => ({
    ...(typeof i.model === 'string' ? { model: i.model } : {}),
    usage: flatUsage(i),
  }));
  let total: Usage = { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined };
  for (const { usage: u } of parts)
    total = {
      inputTokens: sum(total.inputTokens, u.inputTokens),
      outputTokens: sum(total.outputTokens, u.outputTokens),
      cachedInputTokens: sum(total.cachedInputTokens, u.cachedInputTokens),
      ...(sum(total.cacheWriteInputTokens, u.cacheWriteInputTokens) === undefined
        ? {}
        : { cacheWriteInputTokens: sum(total.cacheWriteInputTokens, u.cacheWriteInputTokens) }),
      ...(sum(total.cacheWrite1hInputTokens, u.cacheWrite1hInputTokens) === undefined
        ? {}
        : { cacheWrite1hInputTokens: sum(total.cacheWrite1hInputTokens, u.cacheWrite1hInputTokens) }),
    };
  const thinking = count(usage?.output_tokens_details?.thinking_tokens);
  return { ...total, ...(thinking === undefined ? {} : { reasoningTokens: thinking }), iterations: parts };
}
