import { pieceTokens, releaseScratch } from './bpe-count.js';
import { type BpeVocabulary, bpeVocabulary } from './bpe-vocabulary.js';
import type { TokenizerName } from './model-info.js';
import { PreTokenizer } from './pre-tokenizer.js';

/**
 * Pre-tokens (runs of letters, of CJK, of punctuation or of spaces, which BPE never merges
 * across) longer than this many UTF-16 units are merged in chunks of this length. A cut
 * can change the count by about one token: on 1 MB of random lowercase letters without a
 * space (one 1M-letter pre-token, cut 1,024 times) the cuts alone add 0.04% to the count.
 * Every chunk is merged (a repeated one once): the work is O(log MAX_BPE_PIECE) per byte
 * on any input, and no part of the text is extrapolated from another.
 */
export const MAX_BPE_PIECE = 1_024;
/** countTextTokens never lets the pre-tokenizer look further than twice this from a pre-token's start. */
const COUNT_PIECE = 4 * MAX_BPE_PIECE;
/** exactTextTokens finds pre-tokens up to this many units whole; positions in one merge stay below 2^26 bytes. */
const EXACT_PIECE = 2 ** 19;
/** Distinct chunks remembered per call; the memo starts again when full, so its memory stays below 8 MB. */
const MEMO_CHUNKS = 4_096;

/** The end of the chunk of at most `size` units from `from` to `limit`, never inside a surrogate pair. */
function chunkEnd(text: string, from: number, size: number, limit: number): number {
  const to = Math.min(limit, from + size);
  const last = text.charCodeAt(to - 1);
  return to < limit && last >= 0xd800 && last <= 0xdbff ? to - 1 : to;
}

/**
 * `text[start, end)`, a pre-token longer than MAX_BPE_PIECE, merged in chunks. `memo`
 * holds the counts of this call's chunks, so a repeated run (a line of '=', one repeated
 * letter) costs one merge per distinct chunk.
 */
function longPieceTokens(
  vocabulary: BpeVocabulary,
  text: string,
  start: number,
  end: number,
  memo: Map<string, number>,
): number {
  let tokens = 0;
  for (let from = start, to = start; from < end; from = to) {
    to = chunkEnd(text, from, MAX_BPE_PIECE, end);
    const chunk = text.slice(from, to);
    let chunkTokens = memo.get(chunk);
    if (chunkTokens === undefined) {
      chunkTokens = pieceTokens(vocabulary, text, from, to);
      if (memo.size >= MEMO_CHUNKS) memo.clear();
      memo.set(chunk, chunkTokens);
    }
    tokens += chunkTokens;
  }
  return tokens;
}

function count(text: string, tokenizer: TokenizerName, exact: boolean): number {
  const vocabulary = bpeVocabulary(tokenizer);
  const pieces = new PreTokenizer(text, vocabulary.split, tokenizer === 'o200k', exact ? EXACT_PIECE : COUNT_PIECE);
  let memo: Map<string, number> | undefined;
  let total = 0;
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieces.end(start);
    if (exact || end - start <= MAX_BPE_PIECE) total += pieceTokens(vocabulary, text, start, end);
    else {
      memo ??= new Map();
      total += longPieceTokens(vocabulary, text, start, end, memo);
    }
  }
  releaseScratch();
  return total;
}

/**
 * Counts the BPE tokens of `text` (o200k or cl100k, special-token text as plain text) with
 * bounded work per character on any input, of any length: it never throws on a long run.
 * Text splits into pre-tokens as the tokenizer splits it (a run without a break is cut
 * every few thousand characters, see PreTokenizer); each is merged exactly, in
 * O(n log n) of its length, except that a pre-token longer than {@link MAX_BPE_PIECE} is
 * merged in chunks of that length. Text without such runs (prose, code, JSON, base64) is
 * counted exactly; the error on long runs is measured in bench/adversarial.ts.
 */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return count(text, tokenizer, false);
}

/**
 * The exact BPE count of `text`: the same merges on whole pre-tokens, never cut in chunks.
 * It equals gpt-tokenizer's countTokens (tested), in O(n log n) time where that one takes
 * O(n^2) on a long pre-token, with scratch memory of about 45 bytes per byte of the
 * longest pre-token. A pre-token of more than 2^19 (524,288) UTF-16 units is cut into
 * pieces of 2^19 to 2^20 units (which gpt-tokenizer's pattern cannot match at all past a
 * few million), which can move the count by about one token per cut.
 */
export function exactTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return count(text, tokenizer, true);
}
