/** A usage object of the AI SDK: ai 6 (language model v3) nests the input tokens, ai 5 (v2) gives a number. */
export interface AISDKUsageShape {
  /** The prompt tokens: a number (ai 5), or an object whose `total` holds them (ai 6); absent when not reported. */
  inputTokens?:
    | number
    | {
        /** All the prompt tokens, cached ones included; absent when the provider did not report them. */
        total?: number | undefined;
      }
    | undefined;
}

/** The prompt tokens a usage object reports, when it does. */
export function inputTokensOf(usage: AISDKUsageShape | undefined): number | undefined {
  const input = usage?.inputTokens;
  if (typeof input === 'number') return input;
  return typeof input?.total === 'number' ? input.total : undefined;
}
