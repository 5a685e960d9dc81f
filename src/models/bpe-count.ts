import { type BpeVocabulary, hashStep } from './bpe-vocabulary.js';
import { writeUtf8 } from './utf8-bytes.js';

/** No pair: larger than every rank. */
const NONE = 0x7fffffff;
/** Positions in one piece are below this (2^26 bytes); rank * POSITIONS + position stays an exact integer. */
const POSITIONS = 2 ** 26;
/** Scratch buffers for pieces up to this many bytes are kept between calls; larger ones are dropped after use. */
const KEEP_BYTES = 1 << 16;

/**
 * Scratch state of one count, grown on demand. A piece's parts form a linked list over
 * byte positions (a part starts at i and ends at next[i]); `pairRank[i]` is the rank of
 * the part at i joined with the one after it. A binary heap orders the pairs by rank, then
 * by position, which is the order in which BPE merges them (lowest rank first, leftmost
 * on a tie), so one piece of n bytes costs O(n log n) instead of the O(n^2) of a scan.
 */
let bytes = new Uint8Array(0);
let hashes = new Int32Array(0);
let next = new Int32Array(0);
let prev = new Int32Array(0);
let pairRank = new Int32Array(0);
/** Heap entries: rank * POSITIONS + position, so one comparison orders by rank, then position. */
let heap = new Float64Array(0);
let heapSize = 0;

/** Room for the UTF-8 bytes of `units` UTF-16 units (3 bytes each at most). */
function ensureBytes(units: number): void {
  if (3 * units <= bytes.length) return;
  bytes = new Uint8Array(Math.max(3 * units, 256));
}

/** Room to merge `length` bytes. */
function ensureWork(length: number): void {
  if (length < next.length) return;
  const n = Math.max(length, Math.min(KEEP_BYTES, next.length * 2), 256);
  hashes = new Int32Array(n + 1);
  next = new Int32Array(n + 1);
  prev = new Int32Array(n + 1);
  pairRank = new Int32Array(n + 1);
  // Every merge pushes at most two pairs: at most 3n entries, stale ones included.
  heap = new Float64Array(3 * n + 8);
}

function push(key: number): void {
  let k = heapSize++;
  while (k > 0) {
    const parent = (k - 1) >> 1;
    const above = heap[parent] as number;
    if (above < key) break;
    heap[k] = above;
    k = parent;
  }
  heap[k] = key;
}

/** Removes the top of the heap. */
function pop(): void {
  heapSize--;
  siftDown(0, heap[heapSize] as number);
}

/** Puts `key` at `k` or below, where it belongs. */
function siftDown(start: number, key: number): void {
  let k = start;
  for (;;) {
    let child = 2 * k + 1;
    if (child >= heapSize) break;
    let below = heap[child] as number;
    if (child + 1 < heapSize) {
      const right = heap[child + 1] as number;
      if (right < below) {
        child++;
        below = right;
      }
    }
    if (key < below) break;
    heap[k] = below;
    k = child;
  }
  heap[k] = key;
}

/** The rank of the part at i joined with the next part, or NONE. */
function rankAfter(vocabulary: BpeVocabulary, i: number, end: number): number {
  const j = next[i] as number;
  if (j >= end) return NONE;
  const rank = vocabulary.rank(bytes, hashes, i, next[j] as number);
  return rank < 0 ? NONE : rank;
}

/** BPE tokens of `bytes[0, end)`: the number of parts left once no adjacent pair is a token. */
function mergeCount(vocabulary: BpeVocabulary, end: number): number {
  if (end <= 1) return end;
  if (vocabulary.rank(bytes, hashes, 0, end) >= 0) return 1;
  heapSize = 0;
  for (let i = 0; i < end; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < end; i++) {
    const rank = rankAfter(vocabulary, i, end);
    pairRank[i] = rank;
    if (rank !== NONE) heap[heapSize++] = rank * POSITIONS + i;
  }
  for (let k = (heapSize >> 1) - 1; k >= 0; k--) siftDown(k, heap[k] as number);
  let parts = end;
  while (heapSize > 0) {
    const top = heap[0] as number;
    const rank = (top / POSITIONS) | 0;
    const i = top - rank * POSITIONS;
    pop();
    if (pairRank[i] !== rank) continue; // stale: the part at i was merged away or grew since
    const j = next[i] as number;
    const after = next[j] as number;
    next[i] = after;
    if (after < end) prev[after] = i;
    pairRank[j] = NONE;
    parts--;
    const mine = rankAfter(vocabulary, i, end);
    pairRank[i] = mine;
    if (mine !== NONE) push(mine * POSITIONS + i);
    const p = prev[i] as number;
    if (p >= 0) {
      const before = rankAfter(vocabulary, p, end);
      if (before !== pairRank[p]) {
        pairRank[p] = before;
        if (before !== NONE) push(before * POSITIONS + p);
      }
    }
  }
  return parts;
}

/**
 * The exact BPE token count of `text[from, to)` taken as one pre-token (the caller splits
 * the text with the encoding's pre-tokenizer first). Time O(n log n) in its UTF-8 length n,
 * which must be below 2^26; scratch memory about 45 bytes per byte of the longest piece
 * counted, freed again by {@link releaseScratch} past 64 KB.
 */
export function pieceTokens(vocabulary: BpeVocabulary, text: string, from: number, to: number): number {
  ensureBytes(to - from);
  const end = writeUtf8(text, from, to, bytes, 0);
  ensureWork(end);
  let hash = 0;
  hashes[0] = 0;
  for (let i = 0; i < end; i++) {
    hash = hashStep(hash, bytes[i] as number);
    hashes[i + 1] = hash;
  }
  return mergeCount(vocabulary, end);
}

/** Frees the scratch buffers once a long piece grew them past 64 KB. */
export function releaseScratch(): void {
  if (bytes.length > 3 * KEEP_BYTES) bytes = new Uint8Array(0);
  if (next.length > KEEP_BYTES + 1) {
    next = new Int32Array(0);
    hashes = next;
    prev = next;
    pairRank = next;
    heap = new Float64Array(0);
  }
}
