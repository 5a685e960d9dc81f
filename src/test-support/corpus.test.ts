import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedFixture, sharedPath } from './corpus.js';

afterEach(() => vi.restoreAllMocks());

describe('sharedFixture()', () => {
  it('says which test is skipped and why when the file is not beside the checkout', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(sharedFixture('fixtures/no-such-file.jsonl', 'some.test.ts', 'the test on it')).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      ['some.test.ts: shared/fixtures/no-such-file.jsonl is not beside the checkout; the test on it is skipped.'],
    ]);
  });

  it('says nothing and gives the path when the file is there', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const there = sharedPath('fixtures/transcripts/SOURCE.md');
    expect(sharedFixture('fixtures/transcripts/SOURCE.md', 'some.test.ts', 'the test on it')).toBe(there);
    expect(warn.mock.calls).toEqual(there === undefined ? [expect.anything()] : []);
  });
});
