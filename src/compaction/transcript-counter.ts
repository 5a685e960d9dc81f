import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';

/**
 * Sums the tokens of a transcript that grows between calls, counting only what is new:
 * it keeps prefix sums over the messages it has seen and recounts from the first message
 * that is no longer the same object, or no longer holds the same content (another hook
 * changed it in place). Comparing references is all the work done for the old part.
 */
export class TranscriptCounter {
  #seen: Message[] = [];
  /** The content (and tool calls) each seen message had, so a message changed in place is recounted. */
  #contents: unknown[] = [];
  #calls: unknown[] = [];
  #prefix: number[] = [0];
  #profileKey = '';

  count(messages: readonly Message[], profile: TokenProfile): number {
    const key = profile.tokenizer + profile.images;
    let same = 0;
    if (key === this.#profileKey) {
      const limit = Math.min(this.#seen.length, messages.length);
      while (same < limit) {
        const message = messages[same] as Message;
        if (this.#seen[same] !== message || this.#contents[same] !== message.content) break;
        if (this.#calls[same] !== (message.role === 'assistant' ? message.toolCalls : undefined)) break;
        same++;
      }
    }
    this.#profileKey = key;
    this.#seen.length = same;
    this.#contents.length = same;
    this.#calls.length = same;
    this.#prefix.length = same + 1;
    let total = this.#prefix[same] as number;
    for (let i = same; i < messages.length; i++) {
      const message = messages[i] as Message;
      total += messageTokens(message, profile);
      this.#seen.push(message);
      this.#contents.push(message.content);
      this.#calls.push(message.role === 'assistant' ? message.toolCalls : undefined);
      this.#prefix.push(total);
    }
    return total;
  }
}
