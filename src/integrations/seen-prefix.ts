import { sameValue } from './same-value.js';

/** The newest messages seen that every check compares: an edit or a removal near the end is the usual one. */
const NEWEST_CHECKED = 4;
/** Older messages compared on each check besides the first and the newest, a different few each time. */
const SAMPLED = 4;

/**
 * The messages a conversation has seen, and a check that a fresh prompt continues them at
 * a cost that does not grow with the conversation: a framework that rebuilds its prompt at
 * every step (the AI SDK's language-model prompt) hands new objects for old messages, so
 * only a few are compared: the first, the newest few, and a few older ones that change
 * from check to check (so that an edit anywhere is found within a few steps, and the
 * common ones, a different conversation or a changed ending, at once). Each is compared by
 * reference first and by value only when the reference differs.
 */
export class SeenPrefix<P> {
  readonly #items: P[] = [];
  #checks = 0;
  /** Messages compared by value so far (what the checks cost beyond references). */
  compared = 0;

  get length(): number {
    return this.#items.length;
  }

  /** The newest message seen. */
  get last(): P | undefined {
    return this.#items[this.#items.length - 1];
  }

  /** How many messages of `prompt` continue what was seen: all of them, or -1 when it does not continue. */
  continues(prompt: readonly P[]): number {
    const n = this.#items.length;
    if (n === 0 || prompt.length < n) return -1;
    this.#checks++;
    for (const i of this.#positions(n)) {
      const seen = this.#items[i];
      if (prompt[i] === seen) continue;
      this.compared++;
      if (!sameValue(prompt[i], seen)) return -1;
    }
    return n;
  }

  #positions(n: number): number[] {
    const positions = [0];
    for (let i = Math.max(1, n - NEWEST_CHECKED); i < n; i++) positions.push(i);
    const older = n - NEWEST_CHECKED - 1;
    if (older <= 0) return positions;
    // A stride prime to most lengths walks every older message in turn, SAMPLED per check.
    for (let k = 0; k < SAMPLED; k++) positions.push(1 + (((this.#checks * SAMPLED + k) * 7_919) % older));
    return positions;
  }

  /** Starts again from `prompt`. */
  reset(prompt: readonly P[]): void {
    this.#items.length = 0;
    this.#items.push(...prompt);
  }

  /** Adds what a prompt added after what was seen. */
  extend(added: readonly P[]): void {
    for (const item of added) this.#items.push(item);
  }

  /** Keeps the first `keep` messages and puts `tail` after them (a session rewrote its end). */
  replaceFrom(keep: number, tail: readonly P[]): void {
    this.#items.length = Math.min(keep, this.#items.length);
    this.extend(tail);
  }
}
