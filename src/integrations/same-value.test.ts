import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameValue } from './same-value.js';

/** JSON with the keys sorted at every level: equal for the same data, whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
      : v,
  );
}

describe('sameValue()', () => {
  it('counts a key set to undefined as absent, and tells apart key sets of the same size', () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameValue({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameValue({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(sameValue([1, 2], { 0: 1, 1: 2 })).toBe(false);
  });

  it('compares bytes byte by byte and URLs by href', () => {
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameValue(new URL('https://a.test/x'), new URL('https://a.test/x'))).toBe(true);
    expect(sameValue(new URL('https://a.test/x'), 'https://a.test/x')).toBe(false);
  });

  it('agrees with a comparison of the JSON texts with sorted keys (500 random pairs, and each value with its copy)', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (x, y) => {
        expect(sameValue(x, structuredClone(x))).toBe(true);
        expect(sameValue(x, y)).toBe(canonical(x) === canonical(y));
      }),
      { numRuns: 500 },
    );
  });
});
