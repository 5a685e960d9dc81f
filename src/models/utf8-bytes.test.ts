import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeUtf8 } from './utf8-bytes.js';

function utf8(text: string, from = 0, to = text.length): number[] {
  const out = new Uint8Array(3 * (to - from));
  return [...out.subarray(0, writeUtf8(text, from, to, out, 0))];
}

describe('writeUtf8', () => {
  it('writes the bytes TextEncoder writes, lone surrogates as U+FFFD', () => {
    const units = fc.constantFrom('a', 'é', '東', '😀', '\ud800', '\udfff', '\u0000', '\u07ff', '\u0800', '\uffff');
    fc.assert(
      fc.property(fc.array(units, { maxLength: 50 }), (parts) => {
        const text = parts.join('');
        expect(utf8(text)).toEqual([...new TextEncoder().encode(text)]);
      }),
      { numRuns: 500 },
    );
  });

  it('writes a range of the text; half a surrogate pair cut off by the range becomes U+FFFD', () => {
    expect(utf8('x東y', 1, 2)).toEqual([0xe6, 0x9d, 0xb1]);
    expect(utf8('😀', 0, 1)).toEqual([0xef, 0xbf, 0xbd]);
  });
});
