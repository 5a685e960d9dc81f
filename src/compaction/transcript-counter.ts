import { Transcript } from '../messages/transcript.js';
import type { Message } from '../messages/types.js';
import { messageTokens, type TokenProfile } from '../models/estimate-tokens.js';
import { holdsProviderCompaction } from '../models/provider-billing.js';

/**
 * Sums the tokens of a transcript that grows between calls, counting only what is new: it
 * keeps prefix sums over the messages it has seen and recounts from the first one that
 * changed. For a {@link Transcript}, that is where its changes since the last count start
 * (changedSince(): exact by construction, nothing else is read); the messages from there on
 * that are the same objects with the same content and calls are not recounted. Any other
 * array is compared message by message from its start (by reference, content and calls),
 * which is exact and costs a comparison per message, not a count.
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
  /** The transcript counted last, and its version then. */
  #transcript: Transcript | undefined;
  #version = 0;

  count(counted: readonly Message[] | Transcript, profile: TokenProfile): number {
    const transcript = counted instanceof Transcript ? counted : undefined;
    const messages = transcript?.messages ?? (counted as readonly Message[]);
    const key = profile.tokenizer + profile.images;
    let same = 0;
    if (key === this.#profileKey) {
      const from =
        transcript !== undefined && transcript === this.#transcript ? transcript.changedSince(this.#version) : 0;
      same = this.#sameFrom(Math.min(from ?? this.#seen.length, this.#seen.length, messages.length), messages);
    }
    this.#profileKey = key;
    this.#transcript = transcript;
    this.#version = transcript?.version ?? 0;
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

  /** How many of the first messages are the ones seen, knowing the first `from` are: compared from there on. */
  #sameFrom(from: number, messages: readonly Message[]): number {
    const limit = Math.min(this.#seen.length, messages.length);
    let same = from;
    while (same < limit) {
      const message = this.#seen[same] as Message;
      if (
        messages[same] !== message ||
        this.#contents[same] !== message.content ||
        this.#calls[same] !== toolCallsOf(message)
      )
        break;
      same++;
    }
    return same;
  }
}

function toolCallsOf(message: Message): unknown {
  return message.role === 'assistant' ? message.toolCalls : undefined;
}
