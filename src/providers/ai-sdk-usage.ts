import type { Usage } from '../contracts/usage.js';
import type { AISDKUsage } from './ai-sdk-spec.js';

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** AI SDK usage of either shape (v2 numbers, v3+ objects) as ours; what the model did not report stays undefined. */
export function aiSDKUsage(usage: AISDKUsage | undefined): Usage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  let inputTokens: number | undefined;
  let cachedInputTokens: number | undefined;
  if (typeof input === 'object' && input !== null) {
    const noCache = count(input.noCache);
    cachedInputTokens = count(input.cacheRead);
    inputTokens =
      count(input.total) ??
      (noCache === undefined ? undefined : noCache + (cachedInputTokens ?? 0) + (count(input.cacheWrite) ?? 0));
  } else {
    inputTokens = count(input);
    cachedInputTokens = count(usage?.cachedInputTokens);
  }
  let outputTokens: number | undefined;
  if (typeof output === 'object' && output !== null) {
    const text = count(output.text);
    outputTokens = count(output.total) ?? (text === undefined ? undefined : text + (count(output.reasoning) ?? 0));
  } else {
    outputTokens = count(output);
  }
  return { inputTokens, outputTokens, cachedInputTokens };
}
