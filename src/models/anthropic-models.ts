import type { LongContextPrice, ModelInfo } from './model-info.js';

/*
 * Anthropic's models. Prices per million tokens from the "Model pricing" table of
 * platform.claude.com/docs/en/about-claude/pricing (read on the date below): base input,
 * cache hits, output; 5-minute cache writes at 1.25x and one-hour writes at 2x the input
 * price, as every row of that table has them. The cache-hit price is each model's own: 0.1x
 * the input for most, 0.025x for Fable 5.1 ($0.25 against $10), 0.05x for Opus 5.5 and
 * Sonnet 5.5 ($0.20 against $4, $0.10 against $2 since Anthropic's cut of 2026-10-07, which the
 * stored page does not yet show: figures from the release notes of kurofune/claudit v1.9.2 and
 * TheKrush/PromptFuel v1.0.23, both read against the pricing page). Windows and output limits
 * from platform.claude.com/docs/en/models (Fable 5.1, Opus 5.5, Opus 5, Sonnet 5, Haiku 4.5)
 * and the model table this library had; Opus 4.7 and 4.8 are given Opus 4.6's and Opus 5's
 * 1M / 128K, and Haiku 5.5 a 200K window, not read from a model page (register your own).
 * Minimum cacheable prefixes: Anthropic's prompt-caching page as quoted in
 * anthropics/anthropic-sdk-python#1194 (4,096 Opus 4.6 / 4.5 and Haiku 4.5; 1,024 the Sonnets
 * 4.x, Opus 4.1 / 4, Sonnet 3.7; 2,048 Haiku 3.5 / 3), and for the newer models the figures of
 * dev.to/creeta "Claude's prompt cache fails silently below 1,024 tokens" (512 Opus 5, Fable 5;
 * 1,024 Opus 4.8, Sonnet 5; 2,048 Opus 4.7).
 */
export const ANTHROPIC_PRICES_READ_ON = '2026-12-04';

/** Anthropic's 5-minute cache writes: 1.25x the input price. */
export const ANTHROPIC_CACHE_WRITE_FACTOR = 1.25;
/** Anthropic's one-hour cache writes: 2x the input price. */
export const ANTHROPIC_CACHE_WRITE_1H_FACTOR = 2;
/** The cache-read factor of a registered Anthropic model given no cache price (most models' 0.1x). */
export const ANTHROPIC_CACHE_READ_FACTOR = 0.1;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The three cache prices of an Anthropic input price: reads at `readFactor`, writes at 1.25x and 2x. */
export function anthropicCachePrices(input: number, readFactor = ANTHROPIC_CACHE_READ_FACTOR) {
  return {
    cachedInputPricePerMillion: round(input * readFactor),
    cacheWriteInputPricePerMillion: round(input * ANTHROPIC_CACHE_WRITE_FACTOR),
    cacheWrite1hInputPricePerMillion: round(input * ANTHROPIC_CACHE_WRITE_1H_FACTOR),
  };
}

/** A long-context tier at these input and output prices, its cache prices by the same factors. */
function tier(aboveInputTokens: number, input: number, output: number, read: number): LongContextPrice {
  return {
    aboveInputTokens,
    ...anthropicCachePrices(input, read / input),
    inputPricePerMillion: input,
    outputPricePerMillion: output,
  };
}

/**
 * The Sonnet 4 and 4.5 price of a request above 200K input tokens (their 1M-context beta): $6
 * input and $22.50 output, the cache prices by the same factors ("Long context pricing" of the
 * pricing page). Opus 4.6, Sonnet 4.6 and later take 1M at their standard prices.
 */
const SONNET_4_LONG = tier(200_000, 6, 22.5, 0.6);
/**
 * Haiku 5.5 above 100K prompt tokens: $0.50 input, $2.50 output, reads $0.05, writes $0.625 and
 * $1.00 (the release notes of kurofune/claudit v1.9.2, read against the pricing page).
 */
const HAIKU_5_5_LONG = tier(100_000, 0.5, 2.5, 0.05);

type Row = [
  id: string,
  contextWindow: number,
  maxOutput: number,
  input: number,
  output: number,
  cacheRead: number,
  minCacheable?: number | undefined,
  longContext?: LongContextPrice,
];

const ROWS: Row[] = [
  ['claude-fable-5-1', 1_000_000, 128_000, 10, 50, 0.25],
  ['claude-fable-5', 1_000_000, 128_000, 10, 50, 1, 512],
  ['claude-opus-5-5', 1_000_000, 128_000, 4, 20, 0.2],
  ['claude-opus-5', 1_000_000, 128_000, 5, 25, 0.5, 512],
  ['claude-opus-4-8', 1_000_000, 128_000, 5, 25, 0.5, 1_024],
  ['claude-opus-4-7', 1_000_000, 128_000, 5, 25, 0.5, 2_048],
  ['claude-sonnet-5-5', 1_000_000, 128_000, 2, 10, 0.1],
  ['claude-sonnet-5', 1_000_000, 128_000, 2, 10, 0.2, 1_024],
  ['claude-haiku-5-5', 200_000, 64_000, 0.1, 0.5, 0.01, undefined, HAIKU_5_5_LONG],
  ['claude-opus-4-6', 1_000_000, 128_000, 5, 25, 0.5, 4_096],
  ['claude-sonnet-4-6', 1_000_000, 128_000, 3, 15, 0.3, 1_024],
  ['claude-opus-4-5', 200_000, 64_000, 5, 25, 0.5, 4_096],
  ['claude-opus-4-1', 200_000, 32_000, 15, 75, 1.5, 1_024],
  ['claude-opus-4', 200_000, 32_000, 15, 75, 1.5, 1_024],
  ['claude-sonnet-4-5', 200_000, 64_000, 3, 15, 0.3, 1_024, SONNET_4_LONG],
  ['claude-sonnet-4', 200_000, 64_000, 3, 15, 0.3, 1_024, SONNET_4_LONG],
  ['claude-haiku-4-5', 200_000, 64_000, 1, 5, 0.1, 4_096],
  ['claude-3-7-sonnet', 200_000, 64_000, 3, 15, 0.3, 1_024],
  ['claude-3-5-sonnet', 200_000, 8_192, 3, 15, 0.3, 1_024],
  ['claude-3-5-haiku', 200_000, 8_192, 0.8, 4, 0.08, 2_048],
  ['claude-3-opus', 200_000, 4_096, 15, 75, 1.5, 1_024],
  ['claude-3-haiku', 200_000, 4_096, 0.25, 1.25, 0.03, 2_048],
];

/** The rows as model infos. Haiku 3's 5-minute writes are $0.30 on the page (not 1.25x of $0.25). */
export const ANTHROPIC_MODELS: readonly ModelInfo[] = ROWS.map(
  ([id, contextWindow, maxOutputTokens, input, output, read, minCacheable, longContext]) => ({
    id,
    provider: 'anthropic',
    contextWindow,
    maxOutputTokens,
    inputPricePerMillion: input,
    outputPricePerMillion: output,
    ...anthropicCachePrices(input, read / input),
    ...(id === 'claude-3-haiku' ? { cacheWriteInputPricePerMillion: 0.3 } : {}),
    ...(minCacheable === undefined ? {} : { minCacheableTokens: minCacheable }),
    ...(longContext === undefined ? {} : { longContext }),
    pricesReadOn: ANTHROPIC_PRICES_READ_ON,
  }),
);
