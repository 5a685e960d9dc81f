import { describe, expect, it } from 'vitest';
import { calibrationAfterCall } from './request-budget.js';
import {
  DEFAULT_PROTECTED_TOKENS,
  DEFAULT_THRESHOLD_PERCENT,
  effectiveProtectedTokens,
  FALLBACK_CONTEXT_WINDOW,
  thresholdTokens,
} from './sizes.js';
import { pauseUntil, rejectSummary } from './summary-guard.js';

describe('calibrationAfterCall', () => {
  it('is what the provider counted beyond the raw estimate', () => {
    expect(calibrationAfterCall(1_067, 1_000, 0)).toBe(67);
  });

  it('is never negative: a provider that counted less resets it to zero', () => {
    expect(calibrationAfterCall(900, 1_000, 40)).toBe(0);
  });

  it('keeps the previous calibration when the provider reported no prompt tokens', () => {
    expect(calibrationAfterCall(undefined, 1_000, 40)).toBe(40);
  });
});

describe('rejectSummary', () => {
  it('rejects a summary that leaves the request above the threshold', () => {
    expect(rejectSummary(10_000, 9_001, 9_000)).toBe(true);
  });

  it('rejects a summary that makes the request larger, even under the threshold', () => {
    expect(rejectSummary(5_000, 5_001, 9_000)).toBe(true);
  });

  it('keeps a summary that gets the request under the threshold and smaller', () => {
    expect(rejectSummary(10_000, 9_000, 9_000)).toBe(false);
    expect(rejectSummary(10_000, 2_000, 9_000)).toBe(false);
  });
});

describe('pauseUntil', () => {
  it('pauses summaries until the transcript has twice as many messages as at the rejection', () => {
    expect(pauseUntil(20)).toBe(40);
  });
});

describe('thresholdTokens', () => {
  it('is the share of the window, 90% by default', () => {
    expect(DEFAULT_THRESHOLD_PERCENT).toBe(0.9);
    expect(thresholdTokens(128_000, DEFAULT_THRESHOLD_PERCENT)).toBe(115_200);
  });

  it('is lowered to contextWindow - reserveOutputTokens, never raised by it', () => {
    expect(thresholdTokens(8_192, 0.9, 2_000)).toBe(6_192);
    expect(thresholdTokens(8_192, 0.5, 100)).toBe(4_096);
  });

  it('is at least one token', () => {
    expect(thresholdTokens(1_000, 0.9, 5_000)).toBe(1);
  });

  it('assumes a 128,000-token window for unknown models', () => {
    expect(FALLBACK_CONTEXT_WINDOW).toBe(128_000);
  });
});

describe('effectiveProtectedTokens', () => {
  it('defaults to 40,000 tokens where half the threshold allows it', () => {
    expect(DEFAULT_PROTECTED_TOKENS).toBe(40_000);
    expect(effectiveProtectedTokens(undefined, 115_200)).toEqual({ protectedTokens: 40_000, capped: false });
  });

  it('caps the default at half the threshold, without a warning', () => {
    expect(effectiveProtectedTokens(undefined, 7_372)).toEqual({ protectedTokens: 3_686, capped: false });
  });

  it('caps a value at or above the threshold (it would protect everything) at half of it, and says so', () => {
    expect(effectiveProtectedTokens(7_372, 7_372)).toEqual({ protectedTokens: 3_686, capped: true });
    expect(effectiveProtectedTokens(50_000, 7_372)).toEqual({ protectedTokens: 3_686, capped: true });
  });

  it('keeps a value below the threshold as it is', () => {
    expect(effectiveProtectedTokens(3_686, 7_372)).toEqual({ protectedTokens: 3_686, capped: false });
    // Above half the threshold but below it: used as set (20,000 of a 25,600 threshold is not capped).
    expect(effectiveProtectedTokens(5_000, 7_372)).toEqual({ protectedTokens: 5_000, capped: false });
    expect(effectiveProtectedTokens(20_000, 25_600)).toEqual({ protectedTokens: 20_000, capped: false });
    expect(effectiveProtectedTokens(7_371, 7_372)).toEqual({ protectedTokens: 7_371, capped: false });
    expect(effectiveProtectedTokens(2_000, 7_372)).toEqual({ protectedTokens: 2_000, capped: false });
  });
});

describe('the 40,000-token protected tail, end to end', () => {
  it('leaves the newest 40,000 tokens of a 128K-window run untouched and prunes what is older', async () => {
    const { compactMessages } = await import('./compact-messages.js');
    const { estimateTokens } = await import('../models/estimate-tokens.js');
    const { readingTranscript } = await import('../test-support/transcripts.js');
    const messages = readingTranscript(60, 12_000); // about 200K tokens of file reads
    const { messages: after } = await compactMessages(messages, { model: 'gpt-4o' });
    // The protected tail starts after the newest pruned result (results are pruned, calls never are).
    const lastPruned = after.findLastIndex((m, i) => m.role === 'tool' && m !== messages[i]);
    expect(lastPruned).toBeGreaterThan(2);
    const tail = estimateTokens(after.slice(lastPruned + 1), 'gpt-4o') - estimateTokens([], 'gpt-4o');
    // The tail holds what fits in 40,000 tokens: within one message of it, never above it.
    expect(tail).toBeLessThanOrEqual(40_000);
    expect(tail).toBeGreaterThan(40_000 - estimateTokens(messages.slice(2, 4), 'gpt-4o'));
  });
});
