/**
 * One test per price rule of the model table (each figure's source is in the table's
 * comments: src/models/anthropic-models.ts and model-table.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Usage } from '../contracts/usage.js';
import { callCost, costAt } from './pricing.js';
import { getModelInfo, registerModel, resetModelRegistry } from './registry.js';

const usage = (input: number, output: number, extra: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: 0,
  ...extra,
});

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
});

describe('the price of a call', () => {
  it("reads each Anthropic model's cache at its own factor: Fable 5.1 at 0.025x, Sonnet 5.5 at 0.05x, Opus 4.6 at 0.1x", () => {
    const read = (model: string) => callCost(model, usage(1_000_000, 0, { cachedInputTokens: 1_000_000 }));
    expect(read('claude-fable-5-1')).toBeCloseTo(0.25, 12);
    expect(read('claude-sonnet-5-5')).toBeCloseTo(0.1, 12);
    expect(read('claude-opus-4-6')).toBeCloseTo(0.5, 12);
    expect(read('claude-haiku-4-5')).toBeCloseTo(0.1, 12);
  });

  it('prices one-hour cache writes at 2x the input price and the other writes at 1.25x', () => {
    const written = usage(1_000_000, 0, { cacheWriteInputTokens: 1_000_000, cacheWrite1hInputTokens: 400_000 });
    expect(callCost('claude-opus-4-7', written)).toBeCloseTo(0.6 * 6.25 + 0.4 * 10, 12);
  });

  it('prices a Sonnet 4.5 request above 200K input tokens at the long-context tier, every token of it', () => {
    const at = (input: number) => callCost('claude-sonnet-4-5', usage(input, 1_000, { cachedInputTokens: 100_000 }));
    expect(at(200_000)).toBeCloseTo((100_000 * 3 + 100_000 * 0.3 + 1_000 * 15) / 1e6, 12);
    expect(at(200_001)).toBeCloseTo((100_001 * 6 + 100_000 * 0.6 + 1_000 * 22.5) / 1e6, 12);
    // Opus 4.6 takes its 1M window at the standard price.
    expect(callCost('claude-opus-4-6', usage(900_000, 0))).toBeCloseTo(4.5, 12);
  });

  it('prices Haiku 5.5 above 100K prompt tokens (cache included) at 5x, and gpt-5.5 above 272K at 2x input, 1.5x output', () => {
    expect(callCost('claude-haiku-5-5', usage(100_000, 1_000))).toBeCloseTo((100_000 * 0.1 + 1_000 * 0.5) / 1e6, 12);
    expect(callCost('claude-haiku-5-5', usage(150_000, 1_000, { cachedInputTokens: 60_000 }))).toBeCloseTo(
      (90_000 * 0.5 + 60_000 * 0.05 + 1_000 * 2.5) / 1e6,
      12,
    );
    expect(callCost('gpt-5.5', usage(272_000, 1_000))).toBeCloseTo((272_000 * 5 + 1_000 * 30) / 1e6, 12);
    expect(callCost('gpt-5.5', usage(300_000, 1_000))).toBeCloseTo((300_000 * 10 + 1_000 * 45) / 1e6, 12);
  });

  it('prices each iteration of a request at its own model: a server-side fallback from Fable 5 to Opus 4.8', () => {
    const cost = callCost('claude-fable-5', {
      ...usage(820, 264),
      iterations: [
        { model: 'claude-fable-5', usage: usage(408, 0) },
        { model: 'claude-opus-4-8', usage: usage(412, 264) },
      ],
    });
    expect(cost).toBeCloseTo((408 * 10 + 412 * 5 + 264 * 25) / 1e6, 12);
  });

  it("knows today's models with a window, prices and the day they were read", () => {
    for (const id of [
      'gpt-5.1',
      'gpt-5.1-codex',
      'gpt-5.2',
      'gpt-5.3-codex',
      'gpt-5.5',
      'claude-opus-4-7',
      'claude-opus-5',
      'claude-sonnet-5',
      'claude-fable-5-1',
      'gemini-3-pro-preview',
    ]) {
      const info = getModelInfo(id);
      expect(info?.contextWindow, id).toBeGreaterThan(0);
      expect(info?.inputPricePerMillion, id).toBeGreaterThan(0);
      expect(info?.pricesReadOn, id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(getModelInfo('anthropic/claude-opus-4-7-20260401')?.id).toBe('claude-opus-4-7');
  });

  it('says once that a model has no price, and gives no cost; a registered price is used', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(callCost('acme-unpriced-1', usage(10, 10))).toBeUndefined();
    expect(callCost('acme-unpriced-1', usage(10, 10))).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("registerModel({ id: 'acme-unpriced-1'");
    expect(callCost('acme-mock-1', usage(10, 10), 'mock')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    registerModel({
      id: 'acme-unpriced-1',
      provider: 'acme',
      contextWindow: 8_000,
      inputPricePerMillion: 1,
      outputPricePerMillion: 2,
    });
    expect(callCost('acme-unpriced-1', usage(1_000_000, 1_000_000))).toBeCloseTo(3, 12);
  });

  it('gives a registered Anthropic model given only its input price the usual cache prices (0.1x, 1.25x, 2x)', () => {
    const info = registerModel({
      id: 'claude-next',
      provider: 'anthropic',
      contextWindow: 200_000,
      inputPricePerMillion: 4,
      outputPricePerMillion: 20,
    });
    expect(info).toMatchObject({
      cachedInputPricePerMillion: 0.4,
      cacheWriteInputPricePerMillion: 5,
      cacheWrite1hInputPricePerMillion: 8,
    });
    expect(
      costAt({ inputPricePerMillion: 1, outputPricePerMillion: 1 }, usage(10, 0, { cachedInputTokens: 20 })),
    ).toBeCloseTo(10 / 1e6, 15);
  });
});
