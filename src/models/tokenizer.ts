import { pieceTokens, releaseScratch } from './bpe-count.js';
import { type BpeVocabulary, bpeVocabulary } from './bpe-vocabulary.js';
import type { TokenizerName } from './model-info.js';
import { o200kPieceEnd } from './o200k-pieces.js';

/**
 * Pre-tokens (runs of letters, of CJK, of punctuation or of spaces, which BPE never merges
 * across) longer than this many UTF-16 units are merged in chunks of this length. A cut
 * can change the count by about one token: on 1 MB of random lowercase letters without a
 * space (one 1M-letter pre-token, cut 1,024 times) the cuts alone add 0.03% to the count.
 */
export const MAX_BPE_PIECE = 1_024;
/**
 * A pre-token of more than this many chunks is counted on a sample: every
 * {@link SAMPLE_EVERY}-th chunk (and every chunk seen before) exactly, the others at the
 * tokens per character of the sampled ones. Ordinary text never has such runs; base64,
 * minified JSON and code break into short pre-tokens and are counted exactly.
 */
export const SAMPLE_ABOVE_CHUNKS = 16;
/** One chunk in this many of a long pre-token is merged; see {@link SAMPLE_ABOVE_CHUNKS}. */
export const SAMPLE_EVERY = 2;

/** Pre-tokens longer than this are cut even by exactTextTokens: positions in one merge stay below 2^26 bytes. */
const EXACT_LIMIT = 2 ** 24;

/** The end of the chunk of at most `size` units from `from` to `limit`, never inside a surrogate pair. */
function chunkEnd(text: string, from: number, size = MAX_BPE_PIECE, limit = text.length): number {
  const to = Math.min(limit, from + size);
  const last = text.charCodeAt(to - 1);
  return to < limit && last >= 0xd800 && last <= 0xdbff ? to - 1 : to;
}

/**
 * A pre-token longer than MAX_BPE_PIECE: merged in chunks, and sampled when very long.
 * `memo` holds the counts of the chunks of this call's text, so a repeated run (a line of
 * '=', one repeated letter) costs one merge per distinct chunk.
 */
function longPieceTokens(vocabulary: BpeVocabulary, piece: string, memo: Map<string, number>): number {
  const sampled = piece.length > SAMPLE_ABOVE_CHUNKS * MAX_BPE_PIECE;
  let tokens = 0;
  let countedChars = 0;
  let skippedChars = 0;
  for (let from = 0, index = 0; from < piece.length; index++) {
    const to = chunkEnd(piece, from);
    const chunk = piece.slice(from, to);
    let chunkTokens = memo.get(chunk);
    if (chunkTokens === undefined && (!sampled || index % SAMPLE_EVERY === 0)) {
      chunkTokens = pieceTokens(vocabulary, chunk, 0, chunk.length);
      memo.set(chunk, chunkTokens);
    }
    if (chunkTokens === undefined) skippedChars += chunk.length;
    else {
      tokens += chunkTokens;
      countedChars += chunk.length;
    }
    from = to;
  }
  return tokens + Math.round((tokens / countedChars) * skippedChars);
}

/** The end of the pre-token at `start`: by the ASCII scan for o200k where it can tell, else by the pattern. */
function pieceEnd(text: string, start: number, vocabulary: BpeVocabulary, scan: boolean): number {
  const end = scan ? o200kPieceEnd(text, start) : -1;
  if (end >= 0) return end;
  vocabulary.split.lastIndex = start;
  const match = vocabulary.split.exec(text);
  // Every character starts a match of the pattern, so the match is at `start`.
  if (match === null || match.index !== start) throw new Error(`The pre-tokenizer skipped text at ${start}.`);
  return start + match[0].length;
}

function count(text: string, tokenizer: TokenizerName, exact: boolean): number {
  const vocabulary = bpeVocabulary(tokenizer);
  const scan = tokenizer === 'o200k';
  let memo: Map<string, number> | undefined;
  let total = 0;
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start, vocabulary, scan);
    if (end - start <= MAX_BPE_PIECE) total += pieceTokens(vocabulary, text, start, end);
    else if (exact) {
      for (let from = start, to = start; from < end; from = to) {
        to = chunkEnd(text, from, EXACT_LIMIT, end);
        total += pieceTokens(vocabulary, text, from, to);
      }
    } else {
      memo ??= new Map();
      total += longPieceTokens(vocabulary, text.slice(start, end), memo);
    }
  }
  releaseScratch();
  return total;
}

/**
 * Counts the BPE tokens of `text` (o200k or cl100k, special-token text as plain text) with
 * bounded work per character on any input. Text splits into pre-tokens as the tokenizer
 * splits it; each is merged exactly, in O(n log n) of its length, except that a pre-token
 * longer than {@link MAX_BPE_PIECE} is merged in chunks, and one longer than
 * {@link SAMPLE_ABOVE_CHUNKS} chunks on a sample of them. Text without such runs (prose,
 * code, JSON, base64) is counted exactly; the error on long runs is measured in
 * bench/adversarial.ts (at most 0.04% on 1 MB and 10 MB of random letters or CJK).
 */
export function countTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return count(text, tokenizer, false);
}

/**
 * The exact BPE count of `text`: the same merges on whole pre-tokens, never cut or
 * sampled (below 16M characters in one pre-token). It equals gpt-tokenizer's countTokens
 * (tested), in O(n log n) time where that one takes O(n^2) on a long pre-token, with
 * scratch memory of about 45 bytes per byte of the longest pre-token.
 */
export function exactTextTokens(text: string, tokenizer: TokenizerName = 'o200k'): number {
  return count(text, tokenizer, true);
}
