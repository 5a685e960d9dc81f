import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bpeVocabulary } from './bpe-vocabulary.js';
import { o200kPieceEnd } from './o200k-pieces.js';

/** The pre-tokens the o200k pattern gives. */
function byPattern(text: string): string[] {
  const { source, flags } = bpeVocabulary('o200k').split;
  return [...text.matchAll(new RegExp(source, flags))].map((m) => m[0]);
}

/** The pre-tokens of the ASCII scan, asking the pattern where the scan cannot tell. */
function byScan(text: string): { pieces: string[]; scanned: number } {
  const split = bpeVocabulary('o200k').split;
  const pieces: string[] = [];
  let scanned = 0;
  for (let start = 0; start < text.length; ) {
    let end = o200kPieceEnd(text, start);
    if (end >= 0) scanned++;
    else {
      split.lastIndex = start;
      const match = split.exec(text);
      expect(match?.index).toBe(start);
      end = start + (match?.[0].length ?? 0);
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return { pieces, scanned };
}

describe('o200kPieceEnd', () => {
  it('splits ASCII text exactly as the o200k pattern does', () => {
    const units = [...'aZsStTdDmMlLvVeErR09 \t\n\r\u000b\u000c\'"/.,;:-_(){}[]<>=+*&^%$#@!?~`|\\\u0000\u001f\u007f'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...units), { maxLength: 120 }), (parts) => {
        const text = parts.join('');
        const { pieces, scanned } = byScan(text);
        expect(pieces).toEqual(byPattern(text));
        expect(scanned).toBe(pieces.length);
      }),
      { numRuns: 3_000 },
    );
  });

  it('asks the pattern where a character past ASCII decides, and still splits as it does', () => {
    const units = [..."aZs0 \t\n'./_", 'é', 'É', '東', '\u00a0', '\u2028', '٣', '—', '😀', '\ud800', '\u0301'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...units), { maxLength: 80 }), (parts) => {
        const text = parts.join('');
        expect(byScan(text).pieces).toEqual(byPattern(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it('keeps the pattern’s contractions, case runs, digit groups and whitespace rules', () => {
    for (const text of [
      "I'll say DON'T, it's HTTPServer's fooBAR_baz",
      '12345 x1y22 \n\n  indented\r\n\tTabbed  ',
      ' += /*comment*/ {\n  "a": [1, 2]\n}\n',
      '    \n',
      "'s 'LL 'Ve",
    ]) {
      expect(byScan(text).pieces).toEqual(byPattern(text));
    }
  });
});
