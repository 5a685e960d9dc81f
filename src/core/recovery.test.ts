/**
 * core/recovery.ts: the pure rules of API-error recovery (specification "API-error
 * recovery": a too-long request, an oversized media attachment, a response truncated by
 * the output token limit).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configError, LoushoError } from '../errors/lousho-error.js';
import {
  CONTINUE_PROMPT,
  cutMiddle,
  largerOutputLimit,
  mediaMarker,
  overflowTarget,
  planCuts,
  RECOVERY_LIMITS,
  recoveryFor,
  statedLimit,
  statedRequest,
  stitchText,
} from './recovery.js';

const overflow = (details?: Record<string, unknown>) =>
  new LoushoError('LOUSHO_CONTEXT_OVERFLOW', 'prompt is too long', details === undefined ? {} : { details });

/** Parses the marker cutMiddle writes. */
function markerOf(text: string): { cut: number; total: number; label: string } | undefined {
  const match = /\n\[\.\.\. cut (\d+) of (\d+) chars of (.*) to fit the context window \.\.\.\]\n/.exec(text);
  if (match === null) return undefined;
  return { cut: Number(match[1]), total: Number(match[2]), label: String(match[3]) };
}

describe('recoveryFor', () => {
  it('maps a context overflow and a media-too-large error to their recovery', () => {
    expect(recoveryFor(overflow())).toBe('context-overflow');
    expect(recoveryFor(new LoushoError('LOUSHO_MEDIA_TOO_LARGE', 'image too big'))).toBe('media-too-large');
  });

  it('applies to no other error', () => {
    expect(recoveryFor(new LoushoError('LOUSHO_RATE_LIMITED', '429'))).toBeUndefined();
    expect(recoveryFor(new LoushoError('LOUSHO_PROVIDER_FAILED', '500'))).toBeUndefined();
    expect(recoveryFor(configError('bad'))).toBeUndefined();
    expect(recoveryFor(new Error('prompt is too long'))).toBeUndefined();
    expect(recoveryFor('LOUSHO_CONTEXT_OVERFLOW')).toBeUndefined();
    expect(recoveryFor(undefined)).toBeUndefined();
  });

  it('tries each recovery a bounded number of times', () => {
    expect(RECOVERY_LIMITS).toEqual({ contextOverflow: 3, mediaTooLarge: 3, outputTruncated: 3 });
  });
});

describe('statedLimit and statedRequest', () => {
  it('read the context window and the request size an overflow error states', () => {
    const error = overflow({ limit: 200_000, requested: 213_456 });
    expect(statedLimit(error)).toBe(200_000);
    expect(statedRequest(error)).toBe(213_456);
  });

  it('are undefined when the error states nothing usable', () => {
    for (const details of [undefined, {}, { limit: 0, requested: -3 }, { limit: '200000', requested: null }]) {
      const error = overflow(details);
      expect(statedLimit(error)).toBeUndefined();
      expect(statedRequest(error)).toBeUndefined();
    }
    expect(statedLimit(new Error('limit 200000'))).toBeUndefined();
    expect(statedRequest({ details: { requested: 5 } })).toBeUndefined();
  });
});

describe('overflowTarget', () => {
  it('aims at 85% of the stated limit on the first attempt', () => {
    expect(overflowTarget({ limit: 100_000, estimate: 150_000, attempt: 1 })).toBe(85_000);
  });

  it('aims at 85% of the estimate when no limit is stated', () => {
    expect(overflowTarget({ limit: undefined, estimate: 40_000, attempt: 1 })).toBe(34_000);
  });

  it('tightens by a further 15% on each later attempt', () => {
    const targets = [1, 2, 3].map((attempt) => overflowTarget({ limit: 100_000, estimate: 0, attempt }));
    expect(targets).toEqual([85_000, 72_250, 61_412]);
    expect(overflowTarget({ limit: 100_000, estimate: 0, attempt: 0 })).toBe(85_000);
  });

  it('is always a whole number of at least 1, below the base', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 0, max: 10 }), (base, attempt) => {
        const target = overflowTarget({ limit: base, estimate: base * 3, attempt });
        expect(Number.isInteger(target)).toBe(true);
        expect(target).toBeGreaterThanOrEqual(1);
        expect(target).toBeLessThanOrEqual(Math.max(1, Math.floor(base * 0.85)));
      }),
    );
  });
});

describe('cutMiddle', () => {
  it('leaves a text that fits as it is', () => {
    expect(cutMiddle('short', 100, 'read')).toBe('short');
    expect(cutMiddle('x'.repeat(100), 100, 'read')).toBe('x'.repeat(100));
  });

  it('keeps the head and the tail, with a marker that names the label and how much was cut', () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join('\n');
    const out = cutMiddle(text, 3_000, 'read_file(src/big.ts)');
    expect(out.length).toBeLessThanOrEqual(3_000);
    const marker = markerOf(out);
    expect(marker).toBeDefined();
    expect(marker?.label).toBe('read_file(src/big.ts)');
    expect(marker?.total).toBe(text.length);
    const [head = '', tail = ''] = out.split(/\n\[\.\.\. cut .* \.\.\.\]\n/);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(head.length).toBeGreaterThan(tail.length); // the head is the larger part (70%)
    expect(head.length).toBeGreaterThan(1_500);
    expect(tail.length).toBeGreaterThan(500);
    // The stated amount is at least how much shorter the text got, at most what is missing from it.
    const missing = text.length - head.length - tail.length;
    expect(marker?.cut).toBeGreaterThanOrEqual(text.length - 3_000);
    expect(marker?.cut).toBeLessThanOrEqual(missing);
  });

  it('never exceeds maxChars, and keeps a head and tail of the text, for any text longer than maxChars', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20_000 }),
        fc.integer({ min: 300, max: 10_000 }),
        (text, maxChars) => {
          const out = cutMiddle(text, maxChars, 'tool');
          expect(out.length).toBeLessThanOrEqual(maxChars);
          if (text.length <= maxChars) {
            expect(out).toBe(text);
            return;
          }
          const at = out.indexOf('\n[... cut ');
          expect(at).toBeGreaterThanOrEqual(0);
          expect(text.startsWith(out.slice(0, at))).toBe(true);
          const end = out.indexOf(' ...]\n', at) + ' ...]\n'.length;
          expect(text.endsWith(out.slice(end))).toBe(true);
        },
      ),
    );
  });
});

describe('planCuts', () => {
  const sizes = [
    { chars: 10_000, tokens: 2_500 },
    { chars: 40_000, tokens: 10_000 },
    { chars: 3_000, tokens: 750 },
  ];

  it('cuts the largest result first and leaves the others as they are when that is enough', () => {
    const plan = planCuts(sizes, 1_000);
    expect(plan).toBeDefined();
    expect(plan?.[0]).toBe(10_000);
    expect(plan?.[2]).toBe(3_000);
    expect(plan?.[1]).toBeLessThan(40_000);
    // At least the 1,000 tokens asked for (4 chars a token here).
    expect((40_000 - (plan?.[1] ?? 40_000)) / 4).toBeGreaterThanOrEqual(1_000);
  });

  it('goes on to the next largest when the largest cannot give enough, never below minChars', () => {
    const plan = planCuts(sizes, 10_000);
    expect(plan).toBeDefined();
    expect(plan?.[1]).toBe(2_000);
    expect(plan?.[0]).toBeLessThan(10_000);
    expect(plan?.[0]).toBeGreaterThanOrEqual(2_000);
    expect(plan?.[2]).toBe(3_000);
  });

  it('respects a custom minChars and leaves results at or below it alone', () => {
    const plan = planCuts(
      [
        { chars: 900, tokens: 225 },
        { chars: 8_000, tokens: 2_000 },
      ],
      1_500,
      1_000,
    );
    expect(plan?.[0]).toBe(900);
    expect(plan?.[1]).toBeGreaterThanOrEqual(1_000);
  });

  it('returns undefined when even cutting every result to minChars is not enough', () => {
    expect(planCuts(sizes, 20_000)).toBeUndefined();
    expect(planCuts([{ chars: 1_000, tokens: 250 }], 1)).toBeUndefined();
    expect(planCuts([], 1)).toBeUndefined();
  });

  it('needs no cut when nothing is over', () => {
    expect(planCuts(sizes, 0)).toEqual([10_000, 40_000, 3_000]);
  });

  it('for any sizes: saves the tokens asked for when it returns a plan, never grows a result, never cuts below minChars', () => {
    const size = fc
      .tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 2, max: 6 }))
      .map(([tokens, perToken]) => ({ chars: tokens * perToken, tokens }));
    fc.assert(
      fc.property(fc.array(size, { maxLength: 8 }), fc.integer({ min: 1, max: 200_000 }), (list, over) => {
        const plan = planCuts(list, over);
        if (plan === undefined) {
          // Impossible: even cutting everything to 2,000 chars does not save enough.
          const most = list.reduce(
            (sum, s) => sum + (s.chars > 2_000 ? s.tokens - Math.ceil(2_000 / (s.chars / s.tokens)) : 0),
            0,
          );
          expect(most).toBeLessThan(over);
          return;
        }
        let saved = 0;
        list.forEach((s, i) => {
          const keep = plan[i] ?? Number.NaN;
          expect(keep).toBeLessThanOrEqual(s.chars);
          expect(keep).toBeGreaterThanOrEqual(Math.min(s.chars, 2_000));
          saved += (s.chars - keep) / (s.chars / s.tokens);
        });
        expect(saved).toBeGreaterThanOrEqual(over);
      }),
    );
  });
});

describe('largerOutputLimit', () => {
  it('doubles the output limit, up to the model maximum', () => {
    expect(largerOutputLimit(4_096, 32_000)).toBe(8_192);
    expect(largerOutputLimit(20_000, 32_000)).toBe(32_000);
  });

  it('is undefined when the limit is unknown or already at the maximum', () => {
    expect(largerOutputLimit(undefined, 32_000)).toBeUndefined();
    expect(largerOutputLimit(4_096, undefined)).toBeUndefined();
    expect(largerOutputLimit(32_000, 32_000)).toBeUndefined();
    expect(largerOutputLimit(40_000, 32_000)).toBeUndefined();
  });
});

describe('stitchText', () => {
  it('drops the part of the continuation that repeats the end of the cut reply', () => {
    const first = 'The migration plan has three steps. First, back up the database and verify';
    const next = 'back up the database and verify the checksum. Second, run the script.';
    expect(stitchText(first, next)).toBe(
      'The migration plan has three steps. First, back up the database and verify the checksum. Second, run the script.',
    );
  });

  it('joins the two as they are when nothing is repeated, or less than 20 characters', () => {
    expect(stitchText('Hello, wor', 'ld and more')).toBe('Hello, world and more');
    expect(stitchText('ends with verify', 'verify again')).toBe('ends with verifyverify again');
  });

  it('keeps every character of the reply and of the continuation beyond the overlap', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (first, next) => {
        const out = stitchText(first, next);
        expect(out.startsWith(first)).toBe(true);
        expect(out.endsWith(next.slice(Math.min(next.length, 200)))).toBe(true);
        expect(out.length).toBeGreaterThanOrEqual(Math.max(first.length, next.length));
      }),
    );
  });

  it('asks the model to continue without repeating', () => {
    expect(CONTINUE_PROMPT).toMatch(/Continue exactly where it stopped/);
  });
});

describe('mediaMarker', () => {
  it('names the removed attachment and says the provider rejected it as too large', () => {
    const marker = mediaMarker('screenshot.png (8.2 MB)');
    expect(marker).toContain('screenshot.png (8.2 MB)');
    expect(marker).toMatch(/removed/);
    expect(marker).toMatch(/too large/);
  });
});

describe('cutMiddle, exactly', () => {
  it('states the exact number of characters it removed and stays within maxChars', () => {
    const text = 'x'.repeat(10_000);
    const out = cutMiddle(text, 2_000, 'read_file({"path":"a.ts"}) result');
    const marker =
      /\n\[\.\.\. cut (\d+) of 10000 chars of read_file\(\{"path":"a\.ts"\}\) result to fit the context window \.\.\.\]\n/.exec(
        out,
      );
    expect(marker).not.toBeNull();
    const kept = out.length - (marker?.[0].length ?? 0);
    expect(Number(marker?.[1]) + kept).toBe(10_000);
    expect(out.length).toBeLessThanOrEqual(2_000);
  });
});
