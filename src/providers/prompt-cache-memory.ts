/** How long a cache entry lives from its last use, by the TTL a breakpoint asks for (Anthropic's docs). */
export const CACHE_TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

/** Where the next request's breakpoints keep the cache: message indexes of the request it is asked about. */
export interface CachePlaces {
  /** The end of the longest prefix an earlier request cached that this one did not change: read it. */
  reuse: number | undefined;
  /**
   * The end of the newest stretch a compaction rewrote: a breakpoint there writes (then keeps
   * alive) an entry that the next compaction, which starts after it, reads back.
   */
  keep: number | undefined;
}

/**
 * Where `messages` stops being what `sent` was: the first index that differs, and the last
 * index of the stretch that was rewritten (undefined when the request only appended). A
 * rewrite in place (pruned results) keeps the old messages at their indexes; one that removed
 * or inserted messages (a summary, a fold) is found by where the old newest message now is.
 */
export function rewrittenStretch(
  sent: readonly unknown[],
  messages: readonly unknown[],
): { first: number; last: number | undefined } {
  const shared = Math.min(messages.length, sent.length);
  let first = 0;
  while (first < shared && messages[first] === sent[first]) first++;
  if (first === sent.length) return { first, last: undefined };
  const newest = sent[sent.length - 1];
  let at = messages.lastIndexOf(newest);
  if (at < first) {
    // The old newest message was itself rewritten (lean mode prunes it): taken as a rewrite in place.
    let last = first;
    for (let i = first; i < shared; i++) if (messages[i] !== sent[i]) last = i;
    return { first, last };
  }
  // Walk back from the old newest message while the old and new messages are the same.
  let old = sent.length - 1;
  while (at > first && old > first && messages[at] === sent[old]) {
    at--;
    old--;
  }
  if (messages[at] !== sent[old]) return { first, last: at };
  // Messages were only removed (or inserted) at `first`: the stretch ends just before it.
  return { first, last: first > 0 ? first - 1 : undefined };
}

/**
 * What the earlier requests of one conversation left in the provider's prompt cache, as far
 * as this provider placed their breakpoints: the messages the last request sent (by
 * reference), for each message a breakpoint ended on when its prefix was last written or
 * read, and the end of the newest rewrite. A compaction that rewrote messages from index j on
 * leaves every entry ending before j in the cache, but no breakpoint placed from the request's
 * messages alone would point at one: {@link places} names it, so the request reads that prefix
 * and writes only what changed. An entry is dropped once a request changed a message it
 * covers, or once it is older than its TTL. O(messages) a request.
 */
export class PromptCacheMemory {
  #sent: readonly unknown[] = [];
  /** Message index a breakpoint ended on → when its prefix was last written or read. */
  readonly #entries = new Map<number, number>();
  #keep: number | undefined;

  constructor(readonly ttlMs: number = CACHE_TTL_MS['5m']) {}

  /** Where the breakpoints of a request of `messages`, sent at `now`, keep the cache. */
  places(messages: readonly unknown[], now: number): CachePlaces {
    const { first, last } = rewrittenStretch(this.#sent, messages);
    let reuse: number | undefined;
    for (const [at, used] of this.#entries) {
      if (at >= first || now - used > this.ttlMs) this.#entries.delete(at);
      else if (reuse === undefined || at > reuse) reuse = at;
    }
    if (last !== undefined) this.#keep = last;
    else if (this.#keep !== undefined && this.#keep >= first) this.#keep = undefined;
    return { reuse, keep: this.#keep };
  }

  /** After a request was sent: the messages it sent, and the messages its breakpoints ended on (written or read at `now`). */
  record(messages: readonly unknown[], breakpoints: readonly number[], now: number): void {
    this.#sent = messages.slice();
    for (const at of breakpoints) if (at >= 0) this.#entries.set(at, now);
  }
}
