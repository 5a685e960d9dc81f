/** A usage object of the AI SDK: ai 6 (language model v3) nests the input tokens, ai 5 (v2) gives a number. */
export interface AISDKUsageShape {
  inputTokens?: number | { total?: number | undefined } | undefined;
}

/** The prompt tokens a usage object reports, when it does. */
export function inputTokensOf(usage: AISDKUsageShape | undefined): number | undefined {
  const input = usage?.inputTokens;
  if (typeof input === 'number') return input;
  return typeof input?.total === 'number' ? input.total : undefined;
}
