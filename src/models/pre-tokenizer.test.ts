import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bpeVocabulary } from './bpe-vocabulary.js';
import { PreTokenizer } from './pre-tokenizer.js';

/** The pre-tokens the encoding's pattern gives on the whole text. */
function byPattern(text: string, name: 'o200k' | 'cl100k'): string[] {
  const { source, flags } = bpeVocabulary(name).split;
  return [...text.matchAll(new RegExp(source, flags))].map((m) => m[0]);
}

function byPreTokenizer(text: string, name: 'o200k' | 'cl100k', maxPiece: number): string[] {
  const pieces = new PreTokenizer(text, bpeVocabulary(name).split, name === 'o200k', maxPiece);
  const out: string[] = [];
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieces.end(start);
    out.push(text.slice(start, end));
  }
  return out;
}

const units = [..."aZsS0 9\t\n\r'./_=-{}", 'é', 'É', '東', '京', '\u00a0', '٣', '—', '😀', '\u0301', "'ll", '  \n'];
const text = fc.array(fc.constantFrom(...units), { maxLength: 300 }).map((parts) => parts.join(''));
/** Runs of one kind of character, long enough to be cut with a small maxPiece. */
const runs = fc
  .array(
    fc.tuple(fc.constantFrom('a', 'Z', '東', '😀', ' ', '\n', '=', '7', "'", 'é'), fc.integer({ min: 1, max: 90 })),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.map(([unit, n]) => unit.repeat(n)).join(''));

describe('PreTokenizer', () => {
  it('splits as the pattern does on the whole text wherever every pre-token is short', () => {
    for (const name of ['o200k', 'cl100k'] as const) {
      fc.assert(
        fc.property(fc.oneof(text, runs), (t) => {
          const expected = byPattern(t, name);
          fc.pre(expected.every((piece) => piece.length < 60));
          expect(byPreTokenizer(t, name, 64)).toEqual(expected);
        }),
        { numRuns: 1_000 },
      );
    }
  });

  it('cuts a long pre-token into pieces of at most twice maxPiece, never inside a surrogate pair', () => {
    fc.assert(
      fc.property(runs, (t) => {
        const pieces = byPreTokenizer(t, 'o200k', 16);
        expect(pieces.join('')).toBe(t);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(2 * 16 + 3);
          expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(piece)).toBe(false);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('splits a run of millions of characters that the pattern alone cannot match', () => {
    const run = '東京'.repeat(2_500_000);
    expect(() => byPattern(run, 'o200k')).toThrow(RangeError);
    const pieces = byPreTokenizer(run, 'o200k', 4_096);
    expect(pieces.join('').length).toBe(run.length);
    expect(Math.max(...pieces.slice(0, 1_000).map((p) => p.length))).toBeLessThanOrEqual(8_192);
  });
});
