import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';

/**
 * Sums the tokens of a transcript that grows between calls, counting only what is new:
 * it keeps prefix sums over the messages it has seen and recounts from the first message
 * that is no longer the same object (a compaction rewrote it). Comparing references is
 * all the work done for the old part.
 */
export class TranscriptCounter {
  #seen: Message[] = [];
  #prefix: number[] = [0];
  #profileKey = '';

  count(messages: readonly Message[], profile: TokenProfile): number {
    const key = profile.tokenizer + profile.images;
    let same = 0;
    if (key === this.#profileKey) {
      const limit = Math.min(this.#seen.length, messages.length);
      while (same < limit && this.#seen[same] === messages[same]) same++;
    }
    this.#profileKey = key;
    this.#seen.length = same;
    this.#prefix.length = same + 1;
    let total = this.#prefix[same] as number;
    for (let i = same; i < messages.length; i++) {
      const message = messages[i] as Message;
      total += messageTokens(message, profile);
      this.#seen.push(message);
      this.#prefix.push(total);
    }
    return total;
  }
}
