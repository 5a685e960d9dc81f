import type { AgentsItem } from '../converters/agents-items-types.js';
import { toAgentsItems, writeAgentsItems } from '../converters/to-agents-items.js';
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
 * How the messages of our transcript of a session map to the items the session stores
 * (each message is written as toAgentsItems() writes it, so as many items as it was read
 * from), so that a compaction that changed only the end of the transcript is written as
 * a few popItem() calls and one addItems() of what changed, not as a whole new history.
 * Its cost is the messages that are new or changed.
 */
export class StoredTail {
  /** For each message of the transcript, the stored items up to and with it. */
  readonly #ends: number[] = [];
  readonly #counts = new WeakMap<Message, number>();
  /** False once the items did not add up to what the session stores: then it is written whole. */
  #trusted = true;

  #count(m: Message): number {
    let n = this.#counts.get(m);
    if (n === undefined) {
      n = toAgentsItems([m]).length;
      this.#counts.set(m, n);
    }
    return n;
  }

  /** The assistant message whose calls the results at `from` answer, when `from` starts among them. */
  static #caller(messages: readonly Message[], from: number): Message[] {
    if (messages[from]?.role !== 'tool') return [];
    let j = from - 1;
    while (j >= 0 && messages[j]?.role === 'tool') j--;
    const owner = messages[j];
    return owner?.role === 'assistant' ? [owner] : [];
  }

  /**
   * The write that makes a session of `stored` items hold `messages`, whose messages
   * before `from` are those it already holds; undefined when the whole history is better
   * written again (most of it changed, or the items do not add up to what is stored).
   * `changed` says whether a compaction changed the transcript (else it only grew).
   */
  plan(messages: readonly Message[], from: number, stored: number, changed: boolean): TailWrite | undefined {
    const ends = this.#ends;
    if (ends.length > from) ends.length = from;
    const end = () => (ends.length === 0 ? 0 : (ends[ends.length - 1] as number));
    while (ends.length < from) ends.push(end() + this.#count(messages[ends.length] as Message));
    const keep = end();
    const tailEnds: number[] = [];
    const tail = writeAgentsItems(messages.slice(from), tailEnds, StoredTail.#caller(messages, from));
    tailEnds.forEach((e, k) => {
      this.#counts.set(messages[from + k] as Message, e - (k === 0 ? 0 : (tailEnds[k - 1] as number)));
      ends.push(keep + e);
    });
    const pop = stored - keep;
    if (!changed && pop !== tail.length) this.#trusted = false;
    if (!this.#trusted || pop < 0 || pop > stored / 2) return undefined;
    return { keep, pop, tail };
  }

  /** Forgets the mapping (the session was written whole): the next plan maps it again. */
  forget(): void {
    this.#ends.length = 0;
    this.#trusted = true;
  }
}
