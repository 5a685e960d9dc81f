import { describe, expect, it } from 'vitest';
import { PromptCacheMemory, rewrittenStretch } from './prompt-cache-memory.js';

/** Distinct objects standing for messages: only their references count. */
const make = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('rewrittenStretch', () => {
  it('finds nothing rewritten when the request only appended', () => {
    const sent = make(6);
    expect(rewrittenStretch(sent, [...sent, { i: 6 }, { i: 7 }])).toEqual({ first: 6, last: undefined });
  });

  it('finds a stretch pruned in place, however many messages were appended after it', () => {
    const sent = make(10);
    const now = [...sent, ...make(2)];
    now[3] = { i: 3 };
    now[5] = { i: 5 };
    expect(rewrittenStretch(sent, now)).toEqual({ first: 3, last: 5 });
  });

  it('finds a stretch replaced by fewer messages (a summary) by where the old newest message went', () => {
    const sent = make(12);
    const summary = { summary: true };
    const now = [...sent.slice(0, 2), summary, ...sent.slice(8), ...make(1)];
    expect(rewrittenStretch(sent, now)).toEqual({ first: 2, last: 2 });
  });

  it('takes a rewrite of the old newest message itself as in place (lean mode prunes the result it just sent)', () => {
    const sent = make(6);
    const now = [...sent, ...make(2)];
    now[5] = { i: 5 };
    expect(rewrittenStretch(sent, now)).toEqual({ first: 5, last: 5 });
  });

  it('ends a stretch of removed messages just before where they were', () => {
    const sent = make(8);
    expect(rewrittenStretch(sent, [...sent.slice(0, 3), ...sent.slice(5)])).toEqual({ first: 3, last: 2 });
  });
});

describe('PromptCacheMemory', () => {
  it("names the previous request's newest breakpoint while the run only appends", () => {
    const memory = new PromptCacheMemory();
    const messages = make(4);
    expect(memory.places(messages, 0)).toEqual({ reuse: undefined, keep: undefined });
    memory.record(messages, [3], 0);
    messages.push(...make(2));
    expect(memory.places(messages, 1_000)).toEqual({ reuse: 3, keep: undefined });
  });

  it('after a rewrite, names the newest entry before it, and keeps the end of the rewrite until a later change reaches it', () => {
    const memory = new PromptCacheMemory();
    const messages = make(20);
    for (const end of [5, 9, 13, 19]) memory.record(messages.slice(0, end + 1), [end], 0);
    const pruned = messages.slice();
    pruned[10] = { i: 10 };
    pruned[12] = { i: 12 };
    expect(memory.places(pruned, 1)).toEqual({ reuse: 9, keep: 12 });
    memory.record(pruned, [19, 9, 12], 1);
    const next = [...pruned, ...make(2)];
    expect(memory.places(next, 2)).toEqual({ reuse: 19, keep: 12 });
    // The next compaction starts after the kept end: it reads everything up to that end.
    memory.record(next, [21, 19, 12], 2);
    const again = next.slice();
    again[14] = { i: 14 };
    expect(memory.places(again, 3)).toEqual({ reuse: 12, keep: 14 });
  });

  it('forgets an entry older than its TTL, and one a change reached', () => {
    const memory = new PromptCacheMemory(1_000);
    const messages = make(6);
    memory.record(messages, [2, 5], 0);
    expect(memory.places([...messages, ...make(1)], 1_500).reuse).toBeUndefined();
    memory.record(messages, [2, 5], 2_000);
    const changed = messages.slice();
    changed[4] = { i: 4 };
    expect(memory.places(changed, 2_100).reuse).toBe(2);
  });
});
