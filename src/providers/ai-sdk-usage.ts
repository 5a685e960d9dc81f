import type { Usage } from '../contracts/usage.js';
import type { AISDKUsage } from './ai-sdk-spec.js';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const optional = <K extends string>(key: K, value: number | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, number>>;

/**
 * AI SDK usage of either shape as ours: v3+ objects (`inputTokens: { total, noCache,
 * cacheRead, cacheWrite }`, `outputTokens: { total, text, reasoning }`) or v2 numbers (with
 * `cachedInputTokens`, `reasoningTokens`); what the model did not report stays undefined.
 */
export function aiSDKUsage(usage: AISDKUsage | undefined): Usage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  let inputTokens: number | undefined;
  let cachedInputTokens: number | undefined;
  let cacheWriteInputTokens: number | undefined;
  if (typeof input === 'object' && input !== null) {
    const noCache = count(input.noCache);
    cachedInputTokens = count(input.cacheRead);
    cacheWriteInputTokens = count(input.cacheWrite);
    inputTokens =
      count(input.total) ??
      (noCache === undefined ? undefined : noCache + (cachedInputTokens ?? 0) + (cacheWriteInputTokens ?? 0));
  } else {
    inputTokens = count(input);
    cachedInputTokens = count(usage?.cachedInputTokens);
  }
  let outputTokens: number | undefined;
  let reasoningTokens: number | undefined;
  if (typeof output === 'object' && output !== null) {
    const text = count(output.text);
    reasoningTokens = count(output.reasoning);
    outputTokens = count(output.total) ?? (text === undefined ? undefined : text + (reasoningTokens ?? 0));
  } else {
    outputTokens = count(output);
    reasoningTokens = count(usage?.reasoningTokens);
  }
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens,
    ...optional('cacheWriteInputTokens', cacheWriteInputTokens),
    ...optional('reasoningTokens', reasoningTokens),
  };
}
