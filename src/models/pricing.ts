import type { Usage } from '../contracts/usage.js';
import type { LongContextPrice, ModelInfo } from './model-info.js';
import { getModelInfo } from './registry.js';

/** The prices one request is billed at: the model's, or its long-context tier's for a long prompt. */
export type RequestPrices = Omit<LongContextPrice, 'aboveInputTokens'>;

/** The prices of a request of `inputTokens` (cache reads and writes included) to this model; undefined without a price. */
export function requestPrices(info: ModelInfo, inputTokens: number): RequestPrices | undefined {
  const tier = info.longContext;
  if (tier !== undefined && inputTokens > tier.aboveInputTokens) return tier;
  if (info.inputPricePerMillion === undefined || info.outputPricePerMillion === undefined) return undefined;
  return {
    inputPricePerMillion: info.inputPricePerMillion,
    outputPricePerMillion: info.outputPricePerMillion,
    ...(info.cachedInputPricePerMillion === undefined
      ? {}
      : { cachedInputPricePerMillion: info.cachedInputPricePerMillion }),
    ...(info.cacheWriteInputPricePerMillion === undefined
      ? {}
      : { cacheWriteInputPricePerMillion: info.cacheWriteInputPricePerMillion }),
    ...(info.cacheWrite1hInputPricePerMillion === undefined
      ? {}
      : { cacheWrite1hInputPricePerMillion: info.cacheWrite1hInputPricePerMillion }),
  };
}

/**
 * USD for one call at these prices. Each part of the input at its own price: cache reads at
 * the cached price, one-hour cache writes at the one-hour price, other writes at the
 * (5-minute) write price, each falling back to the input price when the model has none; the
 * rest of the input at the input price; output, reasoning included, at the output price.
 */
export function costAt(prices: RequestPrices, usage: Usage): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const written = Math.min(usage.cacheWriteInputTokens ?? 0, input - cached);
  const written1h = Math.min(usage.cacheWrite1hInputTokens ?? 0, written);
  const inPrice = prices.inputPricePerMillion;
  const writePrice = prices.cacheWriteInputPricePerMillion ?? inPrice;
  return (
    ((input - cached - written) * inPrice +
      cached * (prices.cachedInputPricePerMillion ?? inPrice) +
      (written - written1h) * writePrice +
      written1h * (prices.cacheWrite1hInputPricePerMillion ?? writePrice) +
      (usage.outputTokens ?? 0) * prices.outputPricePerMillion) /
    1e6
  );
}

const unpriced = new Set<string>();

/**
 * USD for one call of `model` at its list prices (see {@link costAt}), at the long-context
 * tier when the request's input is above it; a call of several iterations as the sum of each
 * at its own model's prices. Undefined for a model without a price, which is
 * said once per model on the console (not for the test providers of `/testing`, whose
 * provider is 'mock', nor for a call that reported no tokens): its calls count no cost, so `limits.maxCostUsd` cannot see them
 * (createAgent() refuses that limit for such a model).
 */
export function callCost(model: string, usage: Usage, provider?: string): number | undefined {
  if (usage.iterations !== undefined && usage.iterations.length > 0) {
    let total = 0;
    for (const part of usage.iterations) {
      const cost = callCost(part.model ?? model, part.usage, provider);
      if (cost === undefined) return undefined;
      total += cost;
    }
    return total;
  }
  const info = getModelInfo(model);
  const prices = info === undefined ? undefined : requestPrices(info, usage.inputTokens ?? 0);
  if (prices !== undefined) return costAt(prices, usage);
  const counted = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) > 0;
  if (provider !== 'mock' && counted && !unpriced.has(model)) {
    unpriced.add(model);
    console.warn(
      `@lousho/build-ai-agent: no price is known for the model "${model}", so its calls have no costUsd. ` +
        `Register one with registerModel({ id: '${model}', provider, contextWindow, inputPricePerMillion, outputPricePerMillion }).`,
    );
  }
  return undefined;
}
