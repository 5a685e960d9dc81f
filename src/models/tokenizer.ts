import { createRequire } from 'node:module';
import type { TokenizerName } from './model-info.js';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  default?: { bytePairEncodingCoreProcessor?: { mergeCache?: Map<string, unknown> } };
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

/** Characters after which a cut rarely splits a token: JSON and code punctuation, CJK punctuation. */
const CUT_AFTER = new Set([...',;:{}[]()"\'`<>|。，、！？；：）」』']);

/** Counts one long run in pieces of at most MAX_BPE_RUN, cut after punctuation where there is some. */
function countRun(enc: Encoding, run: string): number {
  let total = 0;
  let start = 0;
  while (start < run.length) {
    let end = Math.min(start + MAX_BPE_RUN, run.length);
    if (end < run.length) {
      for (let i = end; i > start + MAX_BPE_RUN / 2; i--) {
        if (CUT_AFTER.has(run[i - 1] as string)) {
          end = i;
          break;
        }
      }
    }
    total += enc.countTokens(run.slice(start, end), AS_TEXT);
    start = end;
  }
  return total;
}

/** The exact BPE count of `text`, without the run cutting of {@link countTextTokens}. Slow on long runs. */
export function exactTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return text === '' ? 0 : encoding(tokenizer).countTokens(text, AS_TEXT);
}

/** Text is counted in segments of at most this many characters, cut after a space where there is one. */
const SEGMENT_CHARS = 16_384;
/**
 * gpt-tokenizer keeps an LRU merge cache (up to 100,000 entries, a Map that is reordered
 * on every hit). Once it holds tens of thousands of entries, as after one base64 blob,
 * every later hit is slow: 1 MB of CJK text then takes 1.2 s instead of 0.05 s. Clearing
 * it between segments whenever it holds more than this many entries keeps it small; the
 * entries that matter (common words) come back at once.
 */
const MERGE_CACHE_CLEAR_AT = 4_096;

function trimMergeCache(enc: Encoding): void {
  const cache = enc.default?.bytePairEncodingCoreProcessor?.mergeCache;
  if (cache !== undefined && cache.size > MERGE_CACHE_CLEAR_AT) cache.clear();
}

/**
 * Counts the BPE tokens of `text` with bounded work per character: runs of more than
 * {@link MAX_BPE_RUN} characters without a space are counted in pieces, and long text in
 * segments. Linear in the length of the text on any input.
 */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  if (text === '') return 0;
  const enc = encoding(tokenizer);
  if (text.length <= SEGMENT_CHARS) {
    const tokens = countSegment(enc, text);
    trimMergeCache(enc);
    return tokens;
  }
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + SEGMENT_CHARS, text.length);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start + SEGMENT_CHARS / 2) end = space + 1;
    }
    total += countSegment(enc, text.slice(start, end));
    trimMergeCache(enc);
    start = end;
  }
  return total;
}

function countSegment(enc: Encoding, text: string): number {
  LONG_RUN.lastIndex = 0;
  let match = LONG_RUN.exec(text);
  if (match === null) return enc.countTokens(text, AS_TEXT);
  let total = 0;
  let last = 0;
  while (match !== null) {
    if (match.index > last) total += enc.countTokens(text.slice(last, match.index), AS_TEXT);
    total += countRun(enc, match[0]);
    last = match.index + match[0].length;
    match = LONG_RUN.exec(text);
  }
  if (last < text.length) total += enc.countTokens(text.slice(last), AS_TEXT);
  return total;
}
