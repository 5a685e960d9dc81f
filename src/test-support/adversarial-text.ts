/**
 * Text that makes BPE tokenizers slow or wrong, for the estimator's tests: runs without a
 * break of CJK, emoji, one repeated letter, and the two mixed. Every generator is seeded:
 * the same text for the same seed, a new one for another. Built in blocks, never with a
 * spread of a huge array.
 */

/** mulberry32: a seeded generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `units` UTF-16 units, each a string `next()` returns, joined in blocks. */
function build(units: number, next: () => string): string {
  const blocks: string[] = [];
  let block = '';
  let length = 0;
  while (length < units) {
    const part = next();
    block += part;
    length += part.length;
    if (block.length >= 4096) {
      blocks.push(block);
      block = '';
    }
  }
  blocks.push(block);
  const text = blocks.join('');
  return text.length > units ? text.slice(0, units) : text;
}

/** `chars` random characters of U+4E00..U+9FFF (3 bytes of UTF-8 each), without a break. */
export function randomCjk(chars: number, seed: number): string {
  const next = seededRandom(seed);
  return build(chars, () => String.fromCharCode(0x4e00 + Math.floor(next() * 0x5200)));
}

const EMOJI = ['😀', '🎉', '🚀', '👍', '🔥', '🙂', '🌍', '💡', '🧪', '🦊'];

/** `units` UTF-16 units (an even number) of random emoji, each a surrogate pair, without a break. */
export function randomEmoji(units: number, seed: number): string {
  const next = seededRandom(seed);
  return build(units, () => EMOJI[Math.floor(next() * EMOJI.length)] as string);
}

/** `chars` random characters of `alphabet` (one UTF-16 unit each). */
export function randomFrom(alphabet: string, chars: number, seed: number): string {
  const next = seededRandom(seed);
  return build(chars, () => alphabet.charAt(Math.floor(next() * alphabet.length)));
}

/**
 * Alternating blocks of `block` characters: one repeated letter, then random CJK, and so
 * on, `chars` characters in all. Letters and CJK are both letters to the pre-tokenizer, so
 * the whole text is one pre-token whose chunks alternate between two very different rates
 * of tokens per character: a sample of every other chunk sees only one kind.
 */
export function letterAndCjkBlocks(chars: number, seed: number, block = 1_024): string {
  const letter = String.fromCharCode(97 + (seed % 26)).repeat(block);
  let i = 0;
  return build(chars, () => (i++ % 2 === 0 ? letter : randomCjk(block, seed * 1_000 + i)));
}
