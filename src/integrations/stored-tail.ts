import type { AgentsItem } from '../converters/agents-items-types.js';
import { writeAgentsItems } from '../converters/to-agents-items.js';
import type { Message } from '../messages/types.js';

/** What to write to a session so that it holds a transcript: keep its first items, pop the rest, add the tail. */
export interface TailWrite {
  /** Stored items that stay. */
  keep: number;
  /** Stored items to pop, newest first. */
  pop: number;
  /** The items to add after the kept ones. */
  tail: AgentsItem[];
}

/**
 * How the messages of our transcript of a session map to the items the session stores,
 * so that a compaction that changed only the end of the transcript is written as a few
 * popItem() calls and one addItems() of what changed, not as a whole new history.
 *
 * The map is kept from what is known anyway: the items each new message was read from
 * (agentsItemsToMessages() gives their ends) and the items each written message became
 * (writeAgentsItems() gives theirs). A turn that only added items costs a push per new
 * message; nothing is written back to find out how many items a message is.
 */
export class StoredTail {
  /** For each message of the transcript from the first, the stored items up to and with it; shorter when not known. */
  readonly #ends: number[] = [];

  /** The assistant message whose calls the results at `from` answer, when `from` starts among them. */
  static #caller(messages: readonly Message[], from: number): Message[] {
    if (messages[from]?.role !== 'tool') return [];
    let j = from - 1;
    while (j >= 0 && messages[j]?.role === 'tool') j--;
    const owner = messages[j];
    return owner?.role === 'assistant' ? [owner] : [];
  }

  /**
   * The session now stores `stored` items, the newest of them read into the newest
   * messages of `messages`, whose ends among those items are `fresh` (as
   * agentsItemsToMessages() pushed them). When the items before did not map to the
   * messages before, the map is dropped: the next compaction writes the whole history.
   */
  grew(messages: readonly Message[], stored: number, fresh: readonly number[]): void {
    const ends = this.#ends;
    const start = messages.length - fresh.length;
    const base = stored - (fresh[fresh.length - 1] ?? 0);
    if (start === 0) ends.length = 0;
    if (ends.length !== start || (ends[start - 1] ?? 0) !== base) {
      ends.length = 0;
      return;
    }
    for (const end of fresh) ends.push(base + end);
  }

  /**
   * The write that makes a session of `stored` items hold `messages`, whose messages
   * before `from` are those it already holds; undefined when the whole history is better
   * written again (most of it changed, or the map does not reach `from`).
   */
  plan(messages: readonly Message[], from: number, stored: number): TailWrite | undefined {
    const ends = this.#ends;
    if (ends.length < from) return undefined;
    ends.length = from;
    const keep = ends[from - 1] ?? 0;
    const pop = stored - keep;
    if (pop < 0 || pop > stored / 2) return undefined;
    const tailEnds: number[] = [];
    const tail = writeAgentsItems(messages.slice(from), tailEnds, StoredTail.#caller(messages, from));
    for (const end of tailEnds) ends.push(keep + end);
    return { keep, pop, tail };
  }

  /** The session was written whole, each message of the transcript ending at `ends` (none: not known). */
  reset(ends: readonly number[] = []): void {
    this.#ends.length = 0;
    for (const end of ends) this.#ends.push(end);
  }
}
