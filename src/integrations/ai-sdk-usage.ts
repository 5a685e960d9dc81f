import type { AISDKUsage } from '../providers/ai-sdk-spec.js';
import { aiSDKUsage } from '../providers/ai-sdk-usage.js';

/**
 * A usage object of the AI SDK, of any version: ai 5 (language model v2) gives numbers, ai 6
 * and later nest the input tokens. The AI SDK adapter's type (`providers/ai-sdk-spec.ts` owns
 * it), under the name the integrations have always exported.
 */
export type AISDKUsageShape = AISDKUsage;

/** The prompt tokens a usage object reports, when it does: read as the AI SDK adapter reads them. */
export function inputTokensOf(usage: AISDKUsageShape | undefined): number | undefined {
  return aiSDKUsage(usage).inputTokens;
}
