/**
 * The o200k pre-tokenizer on ASCII text, without the regular expression: the end of the
 * pre-token that the o200k pattern matches at `start`, or -1 when a character it would
 * have to look at is not ASCII (the caller then asks the pattern itself). The pattern,
 * whose alternatives are tried in this order:
 *
 *   1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ contraction?
 *   2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]* contraction?
 *   3. \p{N}{1,3}
 *   4.  ?[^\s\p{L}\p{N}]+[\r\n/]*
 *   5. \s*[\r\n]+
 *   6. \s+(?!\S)
 *   7. \s+
 *
 * On ASCII, upper and lower case letters are disjoint, so no alternative ever needs to
 * backtrack into a letter run; that is what makes a scan of each run enough. The regular
 * expression is most of the cost of counting code and JSON; this scan is a few times faster
 * and gives the same pieces (tested against the pattern on random text).
 *
 * Every function reads the text only below `end`, as if the text ended there: the caller
 * bounds how far one pre-token's scan may go (see pre-tokenizer.ts).
 */

const NOT_ASCII = -2;

/** 0 for other (and at `end`), 1 lower, 2 upper, 3 digit, 4 whitespace, 5 CR or LF; NOT_ASCII past 127. */
function kind(text: string, i: number, end: number): number {
  if (i >= end) return 0;
  const c = text.charCodeAt(i);
  if (c >= 97) return c <= 122 ? 1 : c < 128 ? 0 : NOT_ASCII;
  if (c >= 65) return c <= 90 ? 2 : 0;
  if (c >= 48) return c <= 57 ? 3 : 0;
  if (c === 32 || c === 9 || c === 11 || c === 12) return 4;
  if (c === 10 || c === 13) return 5;
  return 0;
}

/** `[^\r\n\p{L}\p{N}]`: anything but a letter, a digit, CR and LF (a space or a tab included). */
const isPrefix = (k: number) => k === 0 || k === 4;

/** The end of an optional contraction ('s, 'd, 'm, 't, 'll, 've, 're in any case) at `i`. */
function contraction(text: string, i: number, end: number): number {
  if (i + 1 >= end || text.charCodeAt(i) !== 39) return i;
  const a = text.charCodeAt(i + 1) | 32;
  if (a === 115 || a === 100 || a === 109 || a === 116) return i + 2; // s d m t
  const b = i + 2 < end ? text.charCodeAt(i + 2) | 32 : 0;
  if ((a === 108 && b === 108) || ((a === 118 || a === 114) && b === 101)) return i + 3; // ll ve re
  return i;
}

/** Alternatives 1 and 2 from `q` (after the optional prefix): the end, -1 when neither matches, NOT_ASCII. */
function letters(text: string, q: number, end: number): number {
  let i = q;
  let k = kind(text, i, end);
  while (k === 2) k = kind(text, ++i, end);
  while (k === 1) k = kind(text, ++i, end);
  if (k === NOT_ASCII) return NOT_ASCII;
  // Alternative 1 matched if a lower-case run followed, else alternative 2 if there was an
  // upper-case run; both end at i. Neither matches without a letter.
  return i === q ? -1 : contraction(text, i, end);
}

/** Length of the whitespace run at `start`, or NOT_ASCII when it meets a character past 127. */
function whitespaceRun(text: string, start: number, end: number): number {
  let i = start;
  for (;;) {
    if (i >= end) return i - start;
    const k = kind(text, i, end);
    if (k === NOT_ASCII) return NOT_ASCII;
    if (k !== 4 && k !== 5) return i - start;
    i++;
  }
}

/**
 * The end of the o200k pre-token at `start` (< end) in `text[0, end)`, or -1 to ask the
 * pattern. `end` is the text's length unless the caller bounds the scan.
 */
export function o200kPieceEnd(text: string, start: number, end = text.length): number {
  const first = kind(text, start, end);
  if (first === NOT_ASCII) return -1;
  // 1 and 2: letters, with an optional non-letter prefix (not CR or LF).
  if (first === 1 || first === 2) {
    const to = letters(text, start, end);
    return to === NOT_ASCII ? -1 : to;
  }
  if (isPrefix(first) && start + 1 < end) {
    const to = letters(text, start + 1, end);
    if (to === NOT_ASCII) return -1;
    if (to >= 0) return to;
  }
  // 3: one to three digits.
  if (first === 3) {
    let i = start + 1;
    while (i < start + 3 && i < end) {
      const k = kind(text, i, end);
      if (k === NOT_ASCII) return -1;
      if (k !== 3) break;
      i++;
    }
    return i;
  }
  // 4: an optional space, punctuation, then CR, LF and '/'.
  let i = start;
  if (text.charCodeAt(i) === 32 && i + 1 < end) {
    const k = kind(text, i + 1, end);
    if (k === NOT_ASCII) return -1;
    if (k === 0) i++;
  }
  if (kind(text, i, end) === 0) {
    let k = 0;
    while (k === 0 && i < end) {
      k = kind(text, ++i, end);
      if (k === NOT_ASCII) return -1;
    }
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13 && c !== 47) break;
      i++;
    }
    return i;
  }
  // 5, 6, 7: whitespace.
  const run = whitespaceRun(text, start, end);
  if (run === NOT_ASCII) return -1;
  for (let j = start + run - 1; j >= start; j--) {
    const c = text.charCodeAt(j);
    if (c === 10 || c === 13) return j + 1; // 5: through the last CR or LF of the run
  }
  if (start + run === end || run === 1) return start + run; // 6 at the end, else 7
  return start + run - 1; // 6: all but the last, which goes with what follows
}
