import { createRequire } from 'node:module';
import type { TokenizerName } from './model-info.js';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const require = createRequire(import.meta.url);
const loaded: Partial<Record<TokenizerName, Encoding>> = {};
/** Special-token text such as '<|endoftext|>' is counted as plain text, never rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The longest run of non-space (or space) characters handed to BPE at once. BPE merges
 * are quadratic in the length of one pre-token, so a long run without spaces (base64,
 * minified code, CJK text, one repeated character) is counted in pieces of this size.
 * Each cut can change the count by about one token, one in every ~30.
 */
export const MAX_BPE_RUN = 128;
const LONG_RUN = new RegExp(`\\S{${MAX_BPE_RUN + 1},}|\\s{${MAX_BPE_RUN + 1},}`, 'g');

function encoding(name: TokenizerName): Encoding {
  let enc = loaded[name];
  if (enc === undefined) {
    // Loaded on first use, synchronously: the vocabularies are a few MB each.
    enc = require(
      name === 'o200k' ? 'gpt-tokenizer/cjs/encoding/o200k_base' : 'gpt-tokenizer/cjs/encoding/cl100k_base',
    ) as Encoding;
    loaded[name] = enc;
  }
  return enc;
}

/** The exact BPE count of `text`, without the run cutting of {@link countTextTokens}. Slow on long runs. */
export function exactTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return text === '' ? 0 : encoding(tokenizer).countTokens(text, AS_TEXT);
}

/**
 * Counts the BPE tokens of `text` with bounded work per character: runs of more than
 * {@link MAX_BPE_RUN} characters without a space are counted in pieces.
 */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  if (text === '') return 0;
  const enc = encoding(tokenizer);
  LONG_RUN.lastIndex = 0;
  let match = LONG_RUN.exec(text);
  if (match === null) return enc.countTokens(text, AS_TEXT);
  let total = 0;
  let last = 0;
  while (match !== null) {
    if (match.index > last) total += enc.countTokens(text.slice(last, match.index), AS_TEXT);
    const run = match[0];
    for (let i = 0; i < run.length; i += MAX_BPE_RUN) total += enc.countTokens(run.slice(i, i + MAX_BPE_RUN), AS_TEXT);
    last = match.index + run.length;
    match = LONG_RUN.exec(text);
  }
  if (last < text.length) total += enc.countTokens(text.slice(last), AS_TEXT);
  return total;
}
