import { o200kPieceEnd } from './o200k-pieces.js';

/** True when `text[i - 1]` is a high surrogate, so that `i` would split a pair. */
function splitsPair(text: string, i: number): boolean {
  const c = text.charCodeAt(i - 1);
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The encoding's pre-tokenizer over one text, with bounded work on any input. Neither the
 * regular expression nor the ASCII scan ever looks further than `2 × maxPiece` UTF-16
 * units from the start of a pre-token, so a longer pre-token (a run of letters, CJK, emoji
 * or punctuation without a break) is cut into pieces of `maxPiece` to `2 × maxPiece` units,
 * each ending where the pattern's match on the bounded text ended. Every pre-token shorter
 * than `maxPiece - 4` units is found exactly as the pattern finds it in the whole text:
 * the pattern reads at most 3 units past the end of its match (a contraction it tries,
 * the lookahead of `\s+(?!\S)`), and always sees at least `maxPiece` units.
 *
 * The bound is what keeps the pattern usable: V8 runs it with a backtracking stack that
 * grows with the length of one match, and a match of a few million characters throws a
 * RangeError ("Maximum call stack size exceeded"). The pattern runs on slices of the text
 * (windows of 2 × maxPiece units), never on the whole of a long text.
 */
export class PreTokenizer {
  private window: string;
  private windowStart = 0;
  private windowEnd: number;

  /**
   * @param text the text to split.
   * @param split the encoding's pattern (global, Unicode).
   * @param scan whether o200kPieceEnd may stand in for the pattern on ASCII (o200k only).
   * @param maxPiece the longest pre-token found whole; longer ones are cut.
   */
  constructor(
    private readonly text: string,
    private readonly split: RegExp,
    private readonly scan: boolean,
    private readonly maxPiece: number,
  ) {
    const whole = text.length <= 2 * maxPiece;
    this.window = whole ? text : '';
    this.windowEnd = whole ? text.length : 0;
  }

  /** The end of the pre-token (or cut piece of one) that starts at `start` (< the text's length). */
  end(start: number): number {
    const text = this.text;
    const limit = Math.min(text.length, start + this.maxPiece);
    if (this.scan) {
      const end = o200kPieceEnd(text, start, limit);
      if (end >= 0) return end;
    }
    if (start + this.maxPiece > this.windowEnd && this.windowEnd < text.length) this.slide(start);
    const at = start - this.windowStart;
    this.split.lastIndex = at;
    const match = this.split.exec(this.window);
    // Every character starts a match of the pattern, so the match is at `start`.
    if (match === null || match.index !== at) throw new Error(`The pre-tokenizer skipped text at ${start}.`);
    // A match that ran into the window's end is a long pre-token, cut there: the window
    // never ends inside a surrogate pair, and the pattern never matches half of one.
    return start + match[0].length;
  }

  /** Moves the window to start at `start`, `2 × maxPiece` units long (or to the text's end). */
  private slide(start: number): void {
    let end = Math.min(this.text.length, start + 2 * this.maxPiece);
    if (end < this.text.length && splitsPair(this.text, end)) end--;
    this.window = this.text.slice(start, end);
    this.windowStart = start;
    this.windowEnd = end;
  }
}
