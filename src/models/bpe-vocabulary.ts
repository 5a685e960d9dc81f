import { createRequire } from 'node:module';
import type { TokenizerName } from './model-info.js';
import { writeUtf8 } from './utf8-bytes.js';

const require = createRequire(import.meta.url);

/** Multiplier of the polynomial hash of byte strings (odd, so its powers never vanish mod 2^32). */
const HASH_BASE = 0x2c1b3c6d;
/** log2 of the filter's size in bits (2^22 bits: 512 KB). */
const FILTER_BITS = 22;
/** Spreads a hash over the table's slots (Fibonacci hashing). */
const SPREAD = 0x9e3779b1 | 0;

/** Adds one byte to a running hash: the prefix hash of a buffer is built the same way. */
export function hashStep(hash: number, byte: number): number {
  return (Math.imul(hash, HASH_BASE) + byte + 1) | 0;
}

/**
 * One BPE vocabulary (gpt-tokenizer's o200k_base or cl100k_base ranks) laid out for counting:
 * every token's bytes in one flat array, and an open-addressing table from a token's hash
 * to its rank. A lookup takes a range of a byte buffer whose prefix hashes are known
 * ({@link hashStep}), so no string is made and no string is hashed per lookup.
 */
export class BpeVocabulary {
  /** The encoding's pre-tokenizer (global, Unicode): BPE never merges across its matches. */
  readonly split: RegExp;
  /** The longest token, in bytes. */
  readonly maxTokenBytes: number;
  private readonly bytes: Uint8Array;
  /** Offset of each rank's bytes in `bytes`, plus one past the last. */
  private readonly starts: Int32Array;
  /** One bit per hash value (22 bits of it): clear when no token has that hash, so most misses stop here. */
  private readonly filter: Int32Array;
  /** Two entries per slot: the token's hash, then its rank + 1 (0 for an empty slot). */
  private readonly table: Int32Array;
  private readonly shift: number;
  private readonly mask: number;
  /** The rank of every two-byte token, indexed by first byte * 256 + second; -1 where none. */
  private readonly pairs: Int32Array;
  /** HASH_BASE^n mod 2^32 for n up to maxTokenBytes. */
  private readonly powers: Int32Array;

  constructor(tokens: readonly (string | readonly number[])[], split: RegExp) {
    this.split = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
    let room = 0;
    for (const token of tokens) room += token.length * 3;
    const bytes = new Uint8Array(room);
    this.starts = new Int32Array(tokens.length + 1);
    let end = 0;
    let longest = 1;
    tokens.forEach((token, rank) => {
      this.starts[rank] = end;
      const start = end;
      if (typeof token === 'string') end = writeUtf8(token, 0, token.length, bytes, end);
      else for (const byte of token) bytes[end++] = byte;
      if (end - start > longest) longest = end - start;
    });
    this.starts[tokens.length] = end;
    this.bytes = bytes.slice(0, end);
    this.maxTokenBytes = longest;
    this.powers = new Int32Array(longest + 1);
    this.powers[0] = 1;
    for (let n = 1; n <= longest; n++) this.powers[n] = Math.imul(this.powers[n - 1] as number, HASH_BASE);

    this.pairs = new Int32Array(65536).fill(-1);
    for (let rank = 0; rank < tokens.length; rank++) {
      const from = this.starts[rank] as number;
      if ((this.starts[rank + 1] as number) - from === 2) {
        this.pairs[((this.bytes[from] as number) << 8) | (this.bytes[from + 1] as number)] = rank;
      }
    }
    const bits = Math.max(8, Math.ceil(Math.log2(tokens.length * 2.5)));
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.table = new Int32Array(2 << bits);
    this.filter = new Int32Array(1 << (FILTER_BITS - 5));
    for (let rank = 0; rank < tokens.length; rank++) {
      let hash = 0;
      for (let i = this.starts[rank] as number; i < (this.starts[rank + 1] as number); i++) {
        hash = hashStep(hash, this.bytes[i] as number);
      }
      let slot = Math.imul(hash, SPREAD) >>> this.shift;
      while ((this.table[2 * slot + 1] as number) !== 0) slot = (slot + 1) & this.mask;
      this.table[2 * slot] = hash;
      const bit = hash >>> (32 - FILTER_BITS);
      this.filter[bit >>> 5] = (this.filter[bit >>> 5] as number) | (1 << (bit & 31));
      this.table[2 * slot + 1] = rank + 1;
    }
  }

  /**
   * The rank of the token whose bytes are `buffer[start, end)`, or -1 when no token has
   * them. `hashes[i]` must be the prefix hash of `buffer[0, i)` (or of any common start).
   */
  rank(buffer: Uint8Array, hashes: Int32Array, start: number, end: number): number {
    const length = end - start;
    if (length === 2) return this.pairs[((buffer[start] as number) << 8) | (buffer[start + 1] as number)] as number;
    if (length > this.maxTokenBytes) return -1;
    const hash = ((hashes[end] as number) - Math.imul(hashes[start] as number, this.powers[length] as number)) | 0;
    const bit = hash >>> (32 - FILTER_BITS);
    if (((this.filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    let slot = Math.imul(hash, SPREAD) >>> this.shift;
    for (;;) {
      const rank = (this.table[2 * slot + 1] as number) - 1;
      if (rank < 0) return -1;
      if (this.table[2 * slot] === hash && this.sameBytes(rank, buffer, start, length)) return rank;
      slot = (slot + 1) & this.mask;
    }
  }

  private sameBytes(rank: number, buffer: Uint8Array, start: number, length: number): boolean {
    const from = this.starts[rank] as number;
    if ((this.starts[rank + 1] as number) - from !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[from + i] !== buffer[start + i]) return false;
    return true;
  }
}

const loaded: Partial<Record<TokenizerName, BpeVocabulary>> = {};

/**
 * The vocabulary of `name`, loaded on first use, synchronously: for o200k about 0.4 s and
 * 14 MB on a busy 2-core machine (gpt-tokenizer's own encoding took 0.5 s and 21 MB there).
 */
export function bpeVocabulary(name: TokenizerName): BpeVocabulary {
  let vocabulary = loaded[name];
  if (vocabulary === undefined) {
    const base = name === 'o200k' ? 'o200k_base' : 'cl100k_base';
    const ranks = require(`gpt-tokenizer/cjs/bpeRanks/${base}`) as { default: (string | number[])[] };
    const patterns = require('gpt-tokenizer/cjs/encodingParams/constants') as Record<string, RegExp>;
    const split = patterns[name === 'o200k' ? 'O200K_TOKEN_SPLIT_REGEX' : 'CL100K_TOKEN_SPLIT_REGEX'];
    if (split === undefined) throw new Error(`gpt-tokenizer has no pre-tokenizer for ${base}.`);
    vocabulary = new BpeVocabulary(ranks.default, split);
    loaded[name] = vocabulary;
  }
  return vocabulary;
}
