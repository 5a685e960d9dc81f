import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';
import { holdsProviderCompaction } from '../models/provider-billing.js';

/** The newest messages whose content every count compares: an edit in place is nearly always of a recent one. */
const NEWEST_CHECKED = 16;
/** Older messages whose content each count compares besides, a different few each time. */
const SAMPLED = 16;

/**
 * Sums the tokens of a transcript that grows between calls, counting only what is new:
 * it keeps prefix sums over the messages it has seen and recounts from the first message
 * that is no longer the same object, or no longer holds the same content (another hook
 * changed it in place).
 *
 * The work for the old part does not read the old messages: the transcript's array is
 * compared with the one seen, reference by reference (a sequential scan of pointers, a few
 * microseconds for thousands of messages, whatever else the process holds), and the
 * content of only the newest {@link NEWEST_CHECKED} messages and {@link SAMPLED} older ones,
 * a different few each time, is compared. A message replaced, inserted or removed anywhere
 * is therefore recounted at once, a recent message whose content was replaced in place too,
 * and an old one edited in place within a few counts (replace the message object, as the
 * compaction strategies do, to have it counted at once). Reading every old message on each
 * count cost a cache miss per message on a large heap: 0.24 ms a count at 2,000 messages
 * inside the AI SDK's loop, three counts a step.
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

  count(messages: readonly Message[], profile: TokenProfile): number {
    const key = profile.tokenizer + profile.images;
    let same = 0;
    if (key === this.#profileKey) {
      const limit = Math.min(this.#seen.length, messages.length);
      const seen = this.#seen;
      while (same < limit && seen[same] === messages[same]) same++;
      same = this.#editedInPlace(same);
    }
    this.#profileKey = key;
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

  /** The first of the checked messages before `same` whose content changed since it was counted, else `same`. */
  #editedInPlace(same: number): number {
    let first = same;
    const check = (i: number) => {
      const message = this.#seen[i] as Message;
      if (this.#contents[i] !== message.content || this.#calls[i] !== toolCallsOf(message)) first = Math.min(first, i);
    };
    const newest = Math.max(0, same - NEWEST_CHECKED);
    for (let i = newest; i < same; i++) check(i);
    if (newest === 0) return first;
    this.#checks++;
    // A stride prime to most lengths walks every older message in turn, SAMPLED per count.
    for (let k = 0; k < SAMPLED; k++) check(((this.#checks * SAMPLED + k) * 7_919) % newest);
    return first;
  }
}

function toolCallsOf(message: Message): unknown {
  return message.role === 'assistant' ? message.toolCalls : undefined;
}
