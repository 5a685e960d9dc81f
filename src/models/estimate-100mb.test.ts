import { describe, expect, it } from 'vitest';
import { letterAndCjkBlocks } from '../test-support/adversarial-text.js';
import { estimateTokens } from './estimate-tokens.js';
import { countTextTokens, exactTextTokens } from './tokenizer.js';

const MB = 2 ** 20;

/**
 * The estimator must never fail a run: any string up to 100 MB is counted without throwing.
 * (Its speed on such input is measured by `npm run bench -- adversarial`, never here.)
 */
describe('estimateTokens on a 100 MB string', () => {
  it('counts 100 MB of one repeated character exactly: 100 times the exact count of 1 MB', () => {
    const perMb = exactTextTokens('a'.repeat(MB));
    const text = 'a'.repeat(100 * MB);
    expect(countTextTokens(text)).toBe(100 * perMb);
    const tokens = estimateTokens([{ role: 'tool', toolCallId: 'c1', content: text }]);
    expect(tokens).toBeGreaterThanOrEqual(100 * perMb);
    expect(tokens).toBeLessThan(100 * perMb + 100);
  }, 120_000);

  it('counts 100 MB of alternating letter blocks and random CJK as the sum of its 1 MB parts, within 0.1%', () => {
    // 1 MB parts (half letters, half 3-byte CJK) whose sizes are whole blocks, so that joining
    // them keeps the alternation; ten of them, ten times over, are 100 MB of UTF-8.
    const parts = Array.from({ length: 10 }, (_, i) => letterAndCjkBlocks(MB / 2, i + 1));
    const text = parts.join('').repeat(10);
    expect(Buffer.byteLength(text, 'utf8')).toBe(100 * MB);
    const whole = countTextTokens(text);
    const sum = 10 * parts.reduce((total, part) => total + countTextTokens(part), 0);
    expect(Math.abs(whole - sum) / sum).toBeLessThan(0.001);
  }, 180_000);
});
