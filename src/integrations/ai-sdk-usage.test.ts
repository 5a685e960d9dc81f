import { describe, expect, it } from 'vitest';
import { aiSDKUsage } from '../providers/ai-sdk-usage.js';
import { inputTokensOf } from './ai-sdk-usage.js';

describe('inputTokensOf', () => {
  it('reads the prompt tokens of every usage shape as the AI SDK adapter does', () => {
    const shapes = [
      undefined,
      {},
      { inputTokens: 120 },
      { inputTokens: { total: 120 } },
      // Only the parts: the integrations used to read nothing here, the adapter their sum.
      { inputTokens: { noCache: 20, cacheRead: 100 } },
    ];
    expect(shapes.map(inputTokensOf)).toEqual([undefined, undefined, 120, 120, 120]);
    for (const usage of shapes) expect(inputTokensOf(usage)).toBe(aiSDKUsage(usage).inputTokens);
  });
});
