import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { countTokens as cl100kReference } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200kReference } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../test-support/adversarial-text.js';
import { countTextTokens, exactTextTokens, MAX_BPE_PIECE } from './tokenizer.js';

/** gpt-tokenizer's own count, special-token text counted as plain text: the reference. */
const reference = {
  o200k: (text: string) => o200kReference(text, { disallowedSpecial: new Set() }),
  cl100k: (text: string) => cl100kReference(text, { disallowedSpecial: new Set() }),
};

const random = seededRandom;

function pick(alphabet: string, chars: number, seed: number): string {
  const next = random(seed);
  const units = [...alphabet];
  return Array.from({ length: chars }, () => units[Math.floor(next() * units.length)]).join('');
}

function randomCjk(chars: number, seed: number): string {
  const next = random(seed);
  return Array.from({ length: chars }, () => String.fromCharCode(0x4e00 + Math.floor(next() * 0x5200))).join('');
}

function randomJson(chars: number, seed: number): string {
  const next = random(seed);
  const words = ['id', 'name', 'version', 'resolved', 'integrity', 'dependencies', 'dev', 'true', 'license', 'MIT'];
  const items: unknown[] = [];
  for (let size = 0; size < chars; size += 120) {
    const word = () => words[Math.floor(next() * words.length)] as string;
    items.push({ [word()]: word(), n: Math.floor(next() * 1e6), nested: { [word()]: [word(), next() > 0.5] } });
  }
  return JSON.stringify(items).slice(0, chars);
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const prose = readFileSync(here('../../scripts/fixtures/prose.txt'), 'utf8');
const code = readdirSync(here('.'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(here(f), 'utf8'))
  .join('\n');
const repeat = (text: string, chars: number) => text.repeat(Math.ceil(chars / text.length)).slice(0, chars);

/** Every input class of bench/adversarial.ts, `chars` long, a new text per seed. */
const CLASSES: Record<string, (chars: number, seed: number) => string> = {
  'random base64': (chars, seed) =>
    pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', chars, seed),
  'random CJK': (chars, seed) => randomCjk(chars, seed),
  'random lowercase letters, no spaces': (chars, seed) => pick('abcdefghijklmnopqrstuvwxyz', chars, seed),
  'one repeated character': (chars, seed) => String.fromCharCode(97 + (seed % 26)).repeat(chars),
  'minified JSON': (chars, seed) => randomJson(chars, seed),
  prose: (chars) => repeat(prose, chars),
  code: (chars) => repeat(code, chars),
};
/** The largest error countTextTokens may have on each class; 0 means exact. */
const BOUND: Record<string, number> = {
  'random base64': 0,
  'random CJK': 0.005,
  'random lowercase letters, no spaces': 0.005,
  'one repeated character': 0,
  'minified JSON': 0,
  prose: 0,
  code: 0,
};

describe('exactTextTokens', () => {
  it("equals gpt-tokenizer's count on random text from every character class", () => {
    const units = [
      ...'abcxyzABCXYZ0123456789 \n\t.,;:{}[]"\'/+=-_',
      ...'éüßñçø東京日本語中文字한국어ไทยहिन्दी',
      '😀',
      '🎉',
      '\ud800',
      '\udc00',
      "'s",
      "'LL",
      '<|endoftext|>',
    ];
    const text = fc.array(fc.constantFrom(...units), { maxLength: 400 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(exactTextTokens(t)).toBe(reference.o200k(t));
        expect(exactTextTokens(t, 'cl100k')).toBe(reference.cl100k(t));
      }),
      { numRuns: 300 },
    );
  });

  it("equals gpt-tokenizer's count on runs without a break, where BPE merges the most", () => {
    for (const text of [
      'a'.repeat(3_000),
      pick('abcdefghijklmnopqrstuvwxyz', 3_000, 1),
      randomCjk(1_500, 2),
      pick('ab', 3_000, 3),
      ' '.repeat(2_000),
      '='.repeat(2_000),
    ]) {
      expect(exactTextTokens(text)).toBe(reference.o200k(text));
    }
  });
});

describe('countTextTokens', () => {
  it('gives the exact o200k count on ordinary text', () => {
    const text = 'The quick brown fox jumps over the lazy dog.\nfunction add(a, b) { return a + b; }';
    expect(countTextTokens(text)).toBe(reference.o200k(text));
    expect(countTextTokens('hello world')).toBe(2);
    expect(countTextTokens('')).toBe(0);
  });

  it('counts cl100k for older OpenAI models', () => {
    const text = 'A sentence with a few words in it, naïve café 東京.';
    expect(countTextTokens(text, 'cl100k')).toBe(reference.cl100k(text));
    expect(countTextTokens(text, 'cl100k')).not.toBe(countTextTokens(text));
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(countTextTokens('a <|endoftext|> b')).toBe(reference.o200k('a <|endoftext|> b'));
    expect(countTextTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });

  // Long enough that a run without a break is cut by the pre-tokenizer and into chunks.
  const chars = MAX_BPE_PIECE * 64;
  for (const [name, make] of Object.entries(CLASSES)) {
    const bound = BOUND[name] ?? 0;
    it(`${bound === 0 ? 'is exact' : `stays within ${bound * 100}% of the exact count`} on ${name}`, () => {
      for (const seed of [11, 12]) {
        const text = make(chars, seed);
        const exact = exactTextTokens(text);
        const error = Math.abs(countTextTokens(text) - exact) / exact;
        if (bound === 0) expect(countTextTokens(text), name).toBe(exact);
        else expect(error, name).toBeLessThanOrEqual(bound);
      }
    });
  }

  it('gives ten times the tokens for ten times the text on every random input class', () => {
    // Prose and code are cut from one fixed text, so ten times as much of it is other text;
    // they are counted exactly (above), which is linear by construction.
    const small = MAX_BPE_PIECE * 32;
    for (const [name, make] of Object.entries(CLASSES).filter(([n]) => n !== 'prose' && n !== 'code')) {
      const one = countTextTokens(make(small, 5));
      const ten = countTextTokens(make(small * 10, 5));
      expect(Math.abs(ten - 10 * one) / (10 * one), name).toBeLessThan(0.01);
    }
  });

  it('counts a run far longer than a chunk without drifting from the exact count', () => {
    const run = pick('abcdefghijklmnopqrstuvwxyz', 200_000, 7);
    const exact = exactTextTokens(run);
    expect(countTextTokens(run)).not.toBe(0);
    expect(Math.abs(countTextTokens(run) - exact) / exact).toBeLessThan(0.002);
  });
});
