import type { Message } from './types.js';

/** The newest changes a transcript keeps: a reader further behind compares every message again. */
const KEPT = 64;

/**
 * A transcript that says what changed: its messages (the array a run's hooks get as
 * `request.messages`), and a version that every change other than appending moves, with the
 * first message each change reached. What keeps a view of a transcript as it grows (the
 * run's token count, a framework's conversation) asks `changedSince(version)` and recounts
 * from there: appending needs no version (what is past a reader's length is new), a change
 * made through the transcript is known exactly, and `changed(from)` says that code which did
 * not go through it (a hook of yours) may have changed anything from `from` on, so the reader
 * compares from there. Nothing is sampled, and nothing is kept outside the object.
 */
export class Transcript {
  readonly messages: Message[];
  /** How many changes came before the first one kept. */
  #base = 0;
  /** The first index each kept change reached, oldest first. */
  #froms: number[] = [];

  constructor(messages: Message[] = []) {
    this.messages = messages;
  }

  /** How many changes other than appending the transcript has had. */
  get version(): number {
    return this.#base + this.#froms.length;
  }

  /** Appends `messages` at the end. */
  append(...messages: Message[]): void {
    for (const message of messages) this.messages.push(message);
  }

  /** Makes the messages from `from` on be `next` (longer, shorter or the same length), in place. */
  replaceFrom(from: number, next: readonly Message[]): void {
    this.messages.length = from;
    for (const message of next) this.messages.push(message);
    this.changed(from);
  }

  /** Puts `message` at `index` in place of the one there. */
  replace(index: number, message: Message): void {
    this.messages[index] = message;
    this.changed(index);
  }

  /** Says the messages from `from` on may have changed in ways the transcript did not see (a hook of yours changed the array). */
  changed(from = 0): void {
    this.#froms.push(Math.max(0, from));
    if (this.#froms.length > KEPT) {
      this.#froms.shift();
      this.#base++;
    }
  }

  /**
   * The first index a change after `version` reached: undefined when there was none (the
   * transcript was only appended to), 0 when the changes kept no longer reach back that far.
   */
  changedSince(version: number): number | undefined {
    if (version >= this.version) return undefined;
    if (version < this.#base) return 0;
    let first = Number.POSITIVE_INFINITY;
    for (let i = version - this.#base; i < this.#froms.length; i++) first = Math.min(first, this.#froms[i] as number);
    return first;
  }
}
