import { editCount, editedSince } from '../messages/edits.js';
import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';
import { holdsProviderCompaction } from '../models/provider-billing.js';

/** The newest messages whose content every count compares: an edit in place is nearly always of a recent one. */
const NEWEST_CHECKED = 16;
/** Older messages whose content each count compares besides, a different few each time. */
const SAMPLED = 16;
/** Every this many counts, every reference is compared, so an old message replaced by other code is found. */
const FULL_CHECK_EVERY = 64;

/**
 * Sums the tokens of a transcript that grows between calls, counting only what is new:
 * it keeps prefix sums over the messages it has seen and recounts from the first message
 * that is no longer the same object, or no longer holds the same content (another hook
 * changed it in place).
 *
 * The work for the old part reads neither the old messages nor the whole array. When the
 * transcript is the array counted last and still holds the newest message seen where it
 * was, the messages before are taken as they were, but for the edits that our code noted
 * (see messages/edits.ts: a compaction, the executor's fit, results put in call order),
 * which are recounted from where they start. Only the newest {@link NEWEST_CHECKED}
 * messages and {@link SAMPLED} older ones, a different few at each count that finds the
 * transcript grown or edited (a count again with nothing new compares only the newest), are
 * compared, by reference and by content; every {@link FULL_CHECK_EVERY}th count compares
 * every reference.
 * So a message inserted or removed anywhere is recounted at once (it moves the newest one),
 * a recent message replaced or edited in place too, and an old one that other code replaced
 * or edited in place within a few steps (at most {@link FULL_CHECK_EVERY} counts when it
 * replaced the object; replace it through our code to have it counted at once). Comparing
 * every reference at every count cost 0.06 ms at 2,000 messages inside the AI SDK's loop,
 * whose own work leaves the arrays out of the cache between our calls, three counts a step:
 * it was what grew with the run.
 */
export class TranscriptCounter {
  #seen: Message[] = [];
  /** The content (and tool calls) each seen message had, so a message changed in place is recounted. */
  #contents: unknown[] = [];
  #calls: unknown[] = [];
  #prefix: number[] = [0];
  /** Prefix sums of the system messages' tokens alone, which a provider's compaction does not supersede. */
  #systemPrefix: number[] = [0];
  /** The indexes of the seen messages that hold a provider's compaction, ascending. */
  #compactions: number[] = [];
  #profileKey = '';
  #checks = 0;
  #counts = 0;
  /** The array counted last, and how many edits it had been noted to have then. */
  #array: readonly Message[] | undefined;
  #edits = 0;

  count(messages: readonly Message[], profile: TokenProfile): number {
    const key = profile.tokenizer + profile.images;
    const edits = editCount(messages);
    this.#counts++;
    let same = 0;
    if (key === this.#profileKey) {
      // Counted again with nothing added or noted (a second look in the same step): the newest are compared, not a sample.
      const again = messages === this.#array && messages.length === this.#seen.length && edits === this.#edits;
      same = this.#editedInPlace(this.#unchanged(messages), messages, again);
    }
    this.#profileKey = key;
    this.#array = messages;
    this.#edits = edits;
    this.#seen.length = same;
    this.#contents.length = same;
    this.#calls.length = same;
    this.#prefix.length = same + 1;
    this.#systemPrefix.length = same + 1;
    while ((this.#compactions.at(-1) ?? -1) >= same) this.#compactions.pop();
    let total = this.#prefix[same] as number;
    let system = this.#systemPrefix[same] as number;
    for (let i = same; i < messages.length; i++) {
      const message = messages[i] as Message;
      const tokens = messageTokens(message, profile);
      total += tokens;
      if (message.role === 'system') system += tokens;
      if (holdsProviderCompaction(message)) this.#compactions.push(i);
      this.#seen.push(message);
      this.#contents.push(message.content);
      this.#calls.push(toolCallsOf(message));
      this.#prefix.push(total);
      this.#systemPrefix.push(system);
    }
    // What the newest provider compaction superseded is not billed: all before it but the system prompt.
    const from = this.#compactions.at(-1);
    if (from === undefined) return total;
    return total - ((this.#prefix[from] as number) - (this.#systemPrefix[from] as number));
  }

  /**
   * How many of the first messages of `messages` are the ones seen: from the newest seen
   * one on when the array is the one counted last, holds it where it was and no edit was
   * noted before it (the rest is compared by #editedInPlace), else by comparing every reference.
   */
  #unchanged(messages: readonly Message[]): number {
    const seen = this.#seen;
    const limit = Math.min(seen.length, messages.length);
    const newest = seen.length - 1;
    let same = 0;
    if (
      messages === this.#array &&
      newest >= 0 &&
      messages[newest] === seen[newest] &&
      this.#counts % FULL_CHECK_EVERY !== 0
    ) {
      same = Math.min(editedSince(messages, this.#edits) ?? newest, newest);
    }
    while (same < limit && seen[same] === messages[same]) same++;
    return same;
  }

  /** The first of the checked messages before `same` that was replaced or whose content changed since it was counted, else `same`. */
  #editedInPlace(same: number, messages: readonly Message[], again: boolean): number {
    let first = same;
    const check = (i: number) => {
      const message = this.#seen[i] as Message;
      if (messages[i] !== message || this.#contents[i] !== message.content || this.#calls[i] !== toolCallsOf(message))
        first = Math.min(first, i);
    };
    const newest = Math.max(0, same - NEWEST_CHECKED);
    for (let i = newest; i < same; i++) check(i);
    if (newest === 0 || again) return first;
    this.#checks++;
    // A stride prime to most lengths walks every older message in turn, SAMPLED per count.
    for (let k = 0; k < SAMPLED; k++) check(((this.#checks * SAMPLED + k) * 7_919) % newest);
    return first;
  }
}

function toolCallsOf(message: Message): unknown {
  return message.role === 'assistant' ? message.toolCalls : undefined;
}
