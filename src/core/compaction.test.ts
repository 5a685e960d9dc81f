/**
 * core/compaction.ts: the tail-preserving Compactor (specification "Context Management",
 * "How recovery actually runs"). It is decoupled from this library's types, so most tests
 * drive it with a message type of their own (`Msg`) through a MessageAdapter; the last
 * ones use this library's Message type through messageAdapter().
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { messageAdapter } from '../compaction/compactor-strategy.js';
import { SUMMARY_HEADER } from '../compaction/summarize.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import { pinMessage } from '../messages/pin.js';
import { groupTurnsWith } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { messageTokens } from '../models/estimate-tokens.js';
import { mockModel } from '../testing/mock-model.js';
import { Compactor, DEFAULT_TAIL_MESSAGES, type MessageAdapter, type RecoverResult } from './compaction.js';
import { LLMSummarizer } from './llm-summarizer.js';
import { type SummarizeContext, type Summarizer, TruncatingSummarizer } from './summarizer.js';

// ---------------------------------------------------------------------------------------
// A message type of our own
// ---------------------------------------------------------------------------------------

/** A chat message of some other application: text, a tool call (one or more ids) or a tool result. */
interface Msg {
  id: number;
  kind: 'text' | 'call' | 'result' | 'summary';
  /** The ids a 'call' makes. */
  calls?: string[];
  /** The id a 'result' answers. */
  callId?: string;
  text: string;
  tokens: number;
  pinned?: boolean;
}

const SUMMARY_TOKENS = 5;

const adapter: MessageAdapter<Msg> = {
  countTokens: (m) => m.tokens,
  toText: (m) => `#${m.id} ${m.kind}: ${m.text}`,
  summaryMessage: (summary) => ({ id: -1, kind: 'summary', text: summary, tokens: SUMMARY_TOKENS }),
  callIds: (m) => (m.kind === 'call' ? (m.calls ?? []) : []),
  resultId: (m) => (m.kind === 'result' ? m.callId : undefined),
  isProtected: (m) => m.pinned === true,
  isSummary: (m) => m.kind === 'summary',
};

let nextId = 0;
const text = (tokens = 100, words = 'hello'): Msg => ({ id: nextId++, kind: 'text', text: words, tokens });
const call = (ids: string[], tokens = 100): Msg => ({
  id: nextId++,
  kind: 'call',
  calls: ids,
  text: `call ${ids.join(',')}`,
  tokens,
});
const result = (callId: string, tokens = 100): Msg => ({
  id: nextId++,
  kind: 'result',
  callId,
  text: `result ${callId}`,
  tokens,
});
const texts = (n: number, tokens = 100): Msg[] => Array.from({ length: n }, () => text(tokens));
const total = (messages: readonly Msg[]) => messages.reduce((sum, m) => sum + m.tokens, 0);

/** A summarizer that records what it was given and answers `reply`. */
function recordingSummarizer<M = Msg>(reply = 'S') {
  const received: M[][] = [];
  const contexts: SummarizeContext<M>[] = [];
  const summarizer: Summarizer<M> = {
    async summarize(messages, context) {
      received.push([...messages]);
      contexts.push(context);
      return reply;
    },
  };
  return { summarizer, received, contexts };
}

function compactor(options: {
  budgetTokens: number;
  softThreshold?: number;
  tailMessages?: number;
  summarizer?: Summarizer<Msg>;
}): Compactor<Msg> {
  return new Compactor<Msg>({ adapter, ...options });
}

function errorCode(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return LoushoError.isInstance(error) ? error.code : 'not a LoushoError';
  }
  return undefined;
}

/** `part` and `whole` hold the same objects in the same order. */
function sameObjects(part: readonly Msg[], whole: readonly Msg[]): boolean {
  return part.length === whole.length && part.every((m, i) => m === whole[i]);
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

describe('Compactor.recover(): when it acts', () => {
  it('does nothing at or below budgetTokens * softThreshold: the input array itself, action none', async () => {
    const { summarizer, received } = recordingSummarizer();
    const c = compactor({ budgetTokens: 1_000, summarizer });
    for (const messages of [texts(7), texts(3), [] as Msg[]]) {
      const r = await c.recover(messages);
      expect(r.messages).toBe(messages);
      expect(r).toMatchObject({
        action: 'none',
        tokensBefore: total(messages),
        tokensAfter: total(messages),
        drainedMessages: 0,
        summarizedMessages: 0,
      });
      expect(r.summary).toBeUndefined();
    }
    expect(received).toEqual([]);
  });

  it('acts one token above the soft limit (default softThreshold 0.7)', async () => {
    const messages = [...texts(6), text(101)]; // 701 tokens, soft limit 700
    const r = await compactor({ budgetTokens: 1_000 }).recover(messages);
    expect(r.action).not.toBe('none');
    expect(r.tokensAfter).toBeLessThanOrEqual(700);
  });

  it('takes its soft limit from softThreshold', async () => {
    const messages = texts(6); // 600 tokens
    expect((await compactor({ budgetTokens: 1_000, softThreshold: 0.6 }).recover(messages)).action).toBe('none');
    expect((await compactor({ budgetTokens: 1_000, softThreshold: 0.5 }).recover(messages)).action).not.toBe('none');
  });
});

describe('Compactor.recover(): the tail', () => {
  it('keeps the newest 4 messages by default exactly as they were: same objects, same order', async () => {
    expect(DEFAULT_TAIL_MESSAGES).toBe(4);
    const messages = texts(20);
    const r = await compactor({ budgetTokens: 500, softThreshold: 0.9 }).recover(messages);
    expect(r.action).toBe('summarized');
    expect(sameObjects(r.messages.slice(-4), messages.slice(-4))).toBe(true);
    expect(r.messages).toHaveLength(5); // the summary and the tail
  });

  it('keeps the tail even when the tail alone is over the budget, and never passes it to the summarizer', async () => {
    const { summarizer, received } = recordingSummarizer();
    const messages = [...texts(4, 10), ...texts(3, 1_000)];
    const r = await compactor({ budgetTokens: 1_000, tailMessages: 3, summarizer }).recover(messages);
    expect(sameObjects(r.messages.slice(-3), messages.slice(-3))).toBe(true);
    for (const batch of received) for (const m of batch) expect(messages.slice(-3)).not.toContain(m);
  });

  it('honours a custom tailMessages, including 0', async () => {
    const messages = texts(10);
    const r6 = await compactor({ budgetTokens: 1_000, softThreshold: 0.5, tailMessages: 6 }).recover(messages);
    expect(sameObjects(r6.messages.slice(-6), messages.slice(-6))).toBe(true);
    const { summarizer, received } = recordingSummarizer();
    const r0 = await compactor({ budgetTokens: 1_000, softThreshold: 0.1, tailMessages: 0, summarizer }).recover(
      messages,
    );
    expect(r0.action).toBe('summarized');
    expect(received[0]).toEqual(messages.slice(5));
  });

  it('does nothing more when the whole transcript is tail', async () => {
    const messages = texts(4, 500);
    const r = await compactor({ budgetTokens: 1_000 }).recover(messages);
    expect(r.messages).toEqual(messages);
    expect(r.drainedMessages + r.summarizedMessages).toBe(0);
  });
});

describe('Compactor.recover(): stage 1, drain', () => {
  it('deletes from the oldest end and stops with action drained once under the soft limit', async () => {
    const { summarizer, received } = recordingSummarizer();
    const messages = texts(8); // 800 tokens, soft limit 700, head of 4
    const r = await compactor({ budgetTokens: 1_000, summarizer }).recover(messages);
    expect(r).toMatchObject({
      action: 'drained',
      tokensBefore: 800,
      tokensAfter: 700,
      drainedMessages: 1,
      summarizedMessages: 0,
    });
    expect(sameObjects(r.messages, messages.slice(1))).toBe(true);
    expect(r.summary).toBeUndefined();
    expect(received).toEqual([]);
  });

  it('drains at most half of the head', async () => {
    const messages = texts(10); // 1,000 tokens; head of 6, so at most 3 drained
    const exactly = await compactor({ budgetTokens: 1_000 }).recover(messages);
    expect(exactly).toMatchObject({ action: 'drained', drainedMessages: 3, tokensAfter: 700 });
    expect(sameObjects(exactly.messages, messages.slice(3))).toBe(true);

    const { summarizer, received } = recordingSummarizer();
    const more = await compactor({ budgetTokens: 1_000, softThreshold: 0.69, summarizer }).recover(messages);
    expect(more).toMatchObject({ action: 'summarized', drainedMessages: 3, summarizedMessages: 3 });
    expect(received[0]).toEqual(messages.slice(3, 6));
  });

  it('with protected messages in the head, still leaves something for stage 2 to compress', async () => {
    // The spec: drain is "capped at half of it, so there's always something left for stage 2 to
    // compress rather than deleting everything outright".
    const system = { ...text(10, 'system prompt'), pinned: true };
    const rules = { ...text(10, 'house rules'), pinned: true };
    const a = text(300, 'early question');
    const b = text(300, 'early answer');
    const tail = texts(4);
    const messages = [system, rules, a, b, ...tail]; // 1,020 tokens, soft limit 700
    const { summarizer, received } = recordingSummarizer();
    const r = await compactor({ budgetTokens: 1_000, summarizer }).recover(messages);
    // Draining a alone leaves 720 tokens (still over), so stage 2 must get b.
    expect
      .soft(r.drainedMessages, 'stage 1 drained both unprotected head messages, leaving nothing for stage 2')
      .toBe(1);
    expect.soft(received).toEqual([[b]]);
    expect.soft(r.action).toBe('summarized');

    // The same with this library's Message type, where the system prompt is always part of the head.
    const long = 'a long question about the order '.repeat(60);
    const chat: Message[] = [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: long },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'and?' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'thanks' },
    ];
    const used = chat.reduce((sum, m) => sum + messageTokens(m), 0);
    const library = recordingSummarizer<Message>();
    const lib = await new Compactor<Message>({
      adapter: messageAdapter((m) => messageTokens(m)),
      budgetTokens: used,
      softThreshold: 0.1,
      summarizer: library.summarizer,
    }).recover(chat);
    expect
      .soft(lib.drainedMessages, 'stage 1 drained the only unprotected head message, leaving nothing for stage 2')
      .toBe(0);
    expect.soft(lib.action).toBe('summarized');
  });

  it('drains a turn whole: a tool call goes with all its results', async () => {
    const turn = [call(['a', 'b']), result('a'), result('b')];
    const messages = [...turn, ...texts(7)]; // 1,000 tokens; head of 6
    const r = await compactor({ budgetTokens: 1_000 }).recover(messages);
    expect(r).toMatchObject({ action: 'drained', drainedMessages: 3 });
    expect(sameObjects(r.messages, messages.slice(3))).toBe(true);
  });

  it('does not split a turn that would go past half of the head: it summarizes it whole instead', async () => {
    const turn = [call(['a', 'b', 'c']), result('a'), result('b'), result('c')];
    const messages = [...turn, ...texts(2), ...texts(4)]; // head of 6, cap 3; the first turn has 4
    const { summarizer, received } = recordingSummarizer();
    const r = await compactor({ budgetTokens: 1_000, summarizer }).recover(messages);
    expect(r).toMatchObject({ action: 'summarized', drainedMessages: 0, summarizedMessages: 6 });
    expect(received[0]).toEqual(messages.slice(0, 6));
  });

  it('keeps protected messages in place and drains around them', async () => {
    const pinned = { ...text(100, 'pinned goal'), pinned: true };
    const messages = [pinned, ...texts(9)];
    const r = await compactor({ budgetTokens: 1_200 }).recover(messages);
    expect(r.action).toBe('drained');
    expect(r.messages[0]).toBe(pinned);
    expect(sameObjects(r.messages.slice(1), messages.slice(1 + r.drainedMessages))).toBe(true);
  });
});

describe('Compactor.recover(): stage 2, summarize', () => {
  it('passes exactly what remains of the head to the Summarizer and puts ONE message in its place', async () => {
    const { summarizer, received } = recordingSummarizer('the summary');
    const messages = texts(10);
    const r = await compactor({ budgetTokens: 1_000, softThreshold: 0.3, summarizer }).recover(messages);
    expect(received).toEqual([messages.slice(3, 6)]);
    expect(received[0]?.every((m, i) => m === messages[3 + i])).toBe(true);
    expect(r.action).toBe('summarized');
    expect(r.summary).toBe('the summary');
    expect(r.messages).toHaveLength(5);
    expect(r.messages[0]).toEqual({ id: -1, kind: 'summary', text: 'the summary', tokens: SUMMARY_TOKENS });
    expect(sameObjects(r.messages.slice(1), messages.slice(6))).toBe(true);
    expect(r).toMatchObject({
      tokensBefore: 1_000,
      tokensAfter: 400 + SUMMARY_TOKENS,
      drainedMessages: 3,
      summarizedMessages: 3,
    });
  });

  it('uses a TruncatingSummarizer by default: no model, the head cut to 500 characters', async () => {
    const messages = Array.from({ length: 40 }, (_, i) => text(100, `message number ${i} `.repeat(3)));
    const c = compactor({ budgetTokens: 1_000 });
    expect(c.summarizer).toBeInstanceOf(TruncatingSummarizer);
    const r = await c.recover(messages);
    expect(r.action).toBe('summarized');
    const remaining = messages.slice(r.drainedMessages, messages.length - 4);
    expect(r.summary).toBe(remaining.map(adapter.toText).join('\n').slice(0, 500));
  });

  it('leaves protected head messages in place, out of the summary', async () => {
    const { summarizer, received } = recordingSummarizer();
    const system = { ...text(50, 'system'), pinned: true };
    const note = { ...text(50, 'pinned note'), pinned: true };
    const messages = [system, ...texts(4), note, ...texts(4), ...texts(4)];
    const r = await compactor({ budgetTokens: 1_000, softThreshold: 0.2, summarizer }).recover(messages);
    expect(r.action).toBe('summarized');
    expect(r.messages[0]).toBe(system);
    expect(r.messages).toContain(note);
    for (const batch of received) expect(batch).not.toContain(note);
    expect(r.messages.indexOf(note)).toBeLessThan(r.messages.length - 4);
  });

  it('summarizes a tool call together with all its results', async () => {
    const { summarizer, received } = recordingSummarizer();
    const turn = [call(['x', 'y']), result('x'), text(10, 'between'), result('y')];
    const messages = [...texts(2), ...turn, ...texts(2), ...texts(4)];
    await compactor({ budgetTokens: 1_000, softThreshold: 0.2, summarizer }).recover(messages);
    const folded = received.flat();
    const inSummary = turn.filter((m) => folded.includes(m)).length;
    expect([0, turn.length]).toContain(inSummary);
  });

  it('passes the abortSignal and onModelCall to the summarizer, with toText from the adapter', async () => {
    const { summarizer, contexts } = recordingSummarizer();
    const controller = new AbortController();
    const onModelCall = vi.fn();
    await compactor({ budgetTokens: 1_000, softThreshold: 0.3, summarizer }).recover(texts(10), {
      abortSignal: controller.signal,
      onModelCall,
    });
    expect(contexts[0]?.abortSignal).toBe(controller.signal);
    expect(contexts[0]?.onModelCall).toBe(onModelCall);
    expect(contexts[0]?.toText(text(1, 'abc'))).toMatch(/text: abc$/);
  });
});

describe('Compactor.recover(): turns and the tail boundary', () => {
  it('moves a tail boundary that falls inside a turn back to the start of the turn', async () => {
    const turn = [call(['a', 'b']), result('a'), result('b')];
    const messages = [...texts(3), ...turn, ...texts(2)]; // the newest 4 start at result('a')
    const { summarizer, received } = recordingSummarizer();
    const r = await compactor({ budgetTokens: 1_000, softThreshold: 0.1, summarizer }).recover(messages);
    expect(sameObjects(r.messages.slice(-5), messages.slice(3))).toBe(true);
    for (const batch of received) for (const m of turn) expect(batch).not.toContain(m);
  });

  it('never modifies the input array or its messages', async () => {
    const messages = [...texts(3), call(['a']), result('a'), ...texts(6)];
    const frozen = Object.freeze(messages.map((m) => Object.freeze(m)));
    const copy = structuredClone(messages);
    await compactor({ budgetTokens: 1_000 }).recover(frozen);
    await compactor({ budgetTokens: 1_000, softThreshold: 0.1 }).recover(frozen);
    expect(messages).toEqual(copy);
  });
});

describe('Compactor: options', () => {
  it('rejects bad options with LOUSHO_CONFIG_INVALID', () => {
    const partial = { countTokens: adapter.countTokens, toText: adapter.toText } as unknown as MessageAdapter<Msg>;
    expect(errorCode(() => new Compactor<Msg>({ adapter: partial, budgetTokens: 100 }))).toBe('LOUSHO_CONFIG_INVALID');
    for (const tailMessages of [-1, 1.5, Number.NaN]) {
      expect(errorCode(() => compactor({ budgetTokens: 100, tailMessages }))).toBe('LOUSHO_CONFIG_INVALID');
    }
    expect(errorCode(() => compactor({ budgetTokens: 0 }))).toBe('LOUSHO_CONFIG_INVALID');
    expect(errorCode(() => compactor({ budgetTokens: 100, softThreshold: 1.5 }))).toBe('LOUSHO_CONFIG_INVALID');
    expect(errorCode(() => compactor({ budgetTokens: 100, softThreshold: 0 }))).toBe('LOUSHO_CONFIG_INVALID');
  });

  it('reads the budget through a TokenBudget with the same threshold', () => {
    const c = compactor({ budgetTokens: 1_000, softThreshold: 0.5 });
    expect(c.budget.softLimitTokens).toBe(500);
    expect(c.tailMessages).toBe(4);
  });
});

// ---------------------------------------------------------------------------------------
// Properties over random transcripts of our own type
// ---------------------------------------------------------------------------------------

type Segment =
  | { type: 'text'; tokens: number; pinned: boolean }
  | { type: 'turn'; results: number[]; callTokens: number; between: boolean; reversed: boolean; pinned: boolean }
  | { type: 'dangling'; tokens: number };

const segment: fc.Arbitrary<Segment> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('text' as const),
      tokens: fc.integer({ min: 0, max: 300 }),
      pinned: fc.nat(7).map((n) => n === 0),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('turn' as const),
      results: fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 3 }),
      callTokens: fc.integer({ min: 0, max: 50 }),
      between: fc.boolean(),
      reversed: fc.boolean(),
      pinned: fc.nat(9).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('dangling' as const), tokens: fc.integer({ min: 0, max: 50 }) }),
  },
);

/** Builds a transcript: every call is followed by all its results (in some order, maybe with a text between). */
function build(segments: readonly Segment[]): Msg[] {
  const out: Msg[] = [];
  let n = 0;
  segments.forEach((s, k) => {
    if (s.type === 'text') out.push({ id: n++, kind: 'text', text: `t${k}`, tokens: s.tokens, pinned: s.pinned });
    else if (s.type === 'dangling')
      out.push({ id: n++, kind: 'call', calls: [`d${k}`], text: 'dangling', tokens: s.tokens });
    else {
      const ids = s.results.map((_, j) => `c${k}_${j}`);
      out.push({ id: n++, kind: 'call', calls: ids, text: 'call', tokens: s.callTokens });
      const results = s.results.map(
        (tokens, j): Msg => ({
          id: n++,
          kind: 'result',
          callId: ids[j] as string,
          text: 'result',
          tokens,
          pinned: s.pinned && j === 0,
        }),
      );
      if (s.reversed) results.reverse();
      if (s.between && results.length > 1) results.splice(1, 0, { id: n++, kind: 'text', text: 'between', tokens: 3 });
      out.push(...results);
    }
  });
  return out;
}

/** Where the kept tail starts, computed on its own: the newest `tail`, moved back out of any turn it cuts. */
function expectedTailStart(messages: readonly Msg[], tail: number): number {
  let start = Math.max(0, messages.length - tail);
  for (let c = 0; c < messages.length; c++) {
    const m = messages[c] as Msg;
    if (m.kind !== 'call' || c >= start) continue;
    const last = Math.max(
      -1,
      ...messages.map((r, i) =>
        r.kind === 'result' && r.callId !== undefined && (m.calls ?? []).includes(r.callId) ? i : -1,
      ),
    );
    if (last >= start) start = c;
  }
  return start;
}

const scenario = fc.record({
  segments: fc.array(segment, { maxLength: 25 }),
  budgetTokens: fc.integer({ min: 1, max: 6_000 }),
  softThreshold: fc.integer({ min: 1, max: 100 }).map((p) => p / 100),
  tailMessages: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
});

describe('Compactor.recover(): properties over random transcripts', () => {
  it('keeps the tail, every protected message and every call with its results; never modifies the input', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ segments, budgetTokens, softThreshold, tailMessages }) => {
        const messages = build(segments);
        const snapshot = structuredClone(messages);
        const objects = [...messages];
        const { summarizer, received } = recordingSummarizer('S');
        const c = new Compactor<Msg>({
          adapter,
          budgetTokens,
          softThreshold,
          summarizer,
          ...(tailMessages === undefined ? {} : { tailMessages }),
        });
        const r: RecoverResult<Msg> = await c.recover(messages);
        const tail = tailMessages ?? 4;
        const limit = Math.floor(budgetTokens * softThreshold);

        // The input is not modified.
        expect(messages).toEqual(snapshot);
        expect(sameObjects(messages, objects)).toBe(true);

        // Nothing happens at or below the soft limit.
        if (total(messages) <= limit) {
          expect(r.messages).toBe(messages);
          expect(r.action).toBe('none');
        }
        expect(r.tokensBefore).toBe(total(messages));
        expect(r.tokensAfter).toBe(total(r.messages));

        // The tail, moved back to the start of a turn it cuts, is exactly as it was.
        const start = expectedTailStart(messages, tail);
        const keptTail = messages.slice(start);
        expect(sameObjects(r.messages.slice(r.messages.length - keptTail.length), keptTail)).toBe(true);
        const newest = Math.min(tail, messages.length);
        expect(
          sameObjects(r.messages.slice(r.messages.length - newest), messages.slice(messages.length - newest)),
        ).toBe(true);

        // Every other message is an input message, in order, except the one summary message.
        const fromInput = r.messages.filter((m) => m.kind !== 'summary');
        let at = 0;
        for (const m of fromInput) {
          at = messages.indexOf(m, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at++;
        }
        const summaries = r.messages.length - fromInput.length;
        expect(summaries).toBe(r.action === 'summarized' ? 1 : 0);
        expect(r.messages.length - summaries + r.drainedMessages + r.summarizedMessages).toBe(messages.length);

        // Protected messages stay.
        for (const m of messages) if (m.pinned === true) expect(r.messages).toContain(m);

        // A call and its results are kept together or removed together.
        const kept = new Set(r.messages);
        for (const m of messages) {
          if (m.kind !== 'call') continue;
          for (const id of m.calls ?? []) {
            const answer = messages.find((x) => x.kind === 'result' && x.callId === id);
            if (answer !== undefined) expect(kept.has(answer)).toBe(kept.has(m));
          }
        }

        // Stage 1 drains at most half of the head; stage 2 got exactly the rest of the head that went.
        expect(r.drainedMessages).toBeLessThanOrEqual(Math.floor(start / 2));
        if (r.action === 'drained') expect(received).toEqual([]);
        if (r.action === 'summarized') {
          expect(received).toHaveLength(1);
          const folded = received[0] ?? [];
          expect(folded).toHaveLength(r.summarizedMessages);
          for (const m of folded) {
            expect(kept.has(m)).toBe(false);
            expect(messages.indexOf(m)).toBeLessThan(start);
          }
          // What was drained is older than anything summarized.
          const gone = messages.filter((m) => !kept.has(m) && !folded.includes(m));
          expect(gone).toHaveLength(r.drainedMessages);
          const lastDrained = Math.max(-1, ...gone.map((m) => messages.indexOf(m)));
          const firstFolded = messages.indexOf(folded[0] as Msg);
          expect(lastDrained).toBeLessThan(firstFolded);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is under the soft limit when it stops at stage 1, unless nothing of the head was left to summarize', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ segments, budgetTokens, softThreshold }) => {
        const messages = build(segments);
        const r = await new Compactor<Msg>({ adapter, budgetTokens, softThreshold }).recover(messages);
        if (r.action !== 'drained' || r.tokensAfter <= Math.floor(budgetTokens * softThreshold)) return;
        // Over the limit after stage 1 alone: every head message left is protected, or in a turn with one.
        const start = expectedTailStart(messages, 4);
        const turns = groupTurnsWith(messages, {
          callIds: (m) => adapter.callIds?.(m) ?? [],
          resultId: (m) => adapter.resultId?.(m),
        });
        for (const turn of turns) {
          if (turn.end > start) continue;
          const group = messages.slice(turn.start, turn.end);
          if (group.some((m) => m.pinned === true)) continue;
          for (const m of group) expect(r.messages).not.toContain(m);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------
// This library's Message type, through messageAdapter()
// ---------------------------------------------------------------------------------------

describe('Compactor with Message and messageAdapter()', () => {
  const body = (i: number) => `Paragraph ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(10)}`;

  function transcript(): Message[] {
    const out: Message[] = [{ role: 'system', content: 'You are a support agent.' }];
    out.push(pinMessage({ role: 'user', content: 'Goal: resolve the ticket.' }));
    for (let i = 0; i < 6; i++) {
      out.push({ role: 'user', content: body(i) });
      out.push({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `t${i}`, name: 'lookup', arguments: { q: i } }],
      });
      out.push({ role: 'tool', toolCallId: `t${i}`, toolName: 'lookup', content: body(100 + i) });
      out.push({ role: 'assistant', content: `Answer ${i}.` });
    }
    return out;
  }

  it('drains, then summarizes into a [Conversation summary] message; system and pinned messages stay', async () => {
    const messages = transcript();
    const used = messages.reduce((s, m) => s + messageTokens(m), 0);
    const c = new Compactor<Message>({
      adapter: messageAdapter((m) => messageTokens(m)),
      budgetTokens: used,
      softThreshold: 0.3,
    });
    const r = await c.recover(messages);
    expect(r.action).toBe('summarized');
    expect(r.messages[0]).toBe(messages[0]);
    expect(r.messages[1]).toBe(messages[1]);
    const summary = r.messages.find((m) => m.metadata?.summary === true);
    expect(summary?.role).toBe('user');
    expect(contentText(summary?.content ?? '')).toMatch(new RegExp(`^\\${SUMMARY_HEADER}\\n`));
    expect(sameMessages(r.messages.slice(-4), messages.slice(-4))).toBe(true);
    // Every tool call still has its result, and every result its call.
    const callIds = r.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((t) => t.id) : []));
    const resultIds = r.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    expect(callIds.sort()).toEqual(resultIds.sort());
  });

  it('renders the head for the summarizer with renderMessage()', async () => {
    const messages = transcript();
    const model = mockModel(['short summary']);
    const used = messages.reduce((s, m) => s + messageTokens(m), 0);
    const c = new Compactor<Message>({
      adapter: messageAdapter((m) => messageTokens(m)),
      budgetTokens: used,
      softThreshold: 0.2,
      summarizer: new LLMSummarizer<Message>({ model }),
    });
    const r = await c.recover(messages);
    expect(r.summary).toBe('short summary');
    const user = contentText(model.calls[0]?.messages[1]?.content ?? '');
    expect(user).toContain('[assistant called lookup(');
    expect(user).toContain('[result of lookup]');
    expect(user).not.toContain('You are a support agent.');
    expect(user).not.toContain('Goal: resolve the ticket.');
  });
});

function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

// ---------------------------------------------------------------------------------------
// The specification's claim: an early fact survives with LLMSummarizer, not with truncation
// ---------------------------------------------------------------------------------------

const ORDER = 'ORD-7731-QX';

/** What a real summarizer does with the default prompt: pulls the facts out of the conversation. */
function extractFacts(request: ModelRequest): string {
  const user = request.messages.find((m) => m.role === 'user');
  const conversation = contentText(user?.content ?? '');
  const facts = conversation
    .split('\n')
    .filter((line) => /order id/i.test(line))
    .map((line) => `- ${line.replace(/^- /, '').trim()}`);
  return [
    '## Facts established',
    ...(facts.length === 0 ? ['- none'] : facts),
    '',
    '## Actions taken',
    '- answered the customer',
    '',
    '## Open questions and next steps',
    '- none',
  ].join('\n');
}

const chatter = (i: number) =>
  `${i % 2 === 0 ? 'Customer' : 'Agent'} message ${i}: ${'shipping times and return windows '.repeat(3)}`;

/** A support conversation of `n` messages where message `at` (0-based) states the order id, once. */
function supportConversation(n: number, at: number): Msg[] {
  return Array.from({ length: n }, (_, i) =>
    i === at
      ? { id: i, kind: 'text', text: `Customer: my order id is ${ORDER}, please keep it at hand.`, tokens: 30 }
      : { id: i, kind: 'text', text: chatter(i), tokens: 30 },
  );
}

const hasFact = (messages: readonly Msg[]) => messages.some((m) => m.text.includes(ORDER));

describe('the fidelity claim: an early fact survives compaction with LLMSummarizer, not with TruncatingSummarizer', () => {
  // Stage 1 deletes the oldest turns outright (that is what drain means), so a fact that must
  // survive from the very first messages is pinned (isProtected), as the agent-level docs say.
  it('a pinned fact from message 3 survives 300 messages compacted as they come', async () => {
    const all = supportConversation(300, 2).map((m) => (m.text.includes(ORDER) ? { ...m, pinned: true } : m));
    const c = compactor({ budgetTokens: 2_000 });
    let live: Msg[] = [];
    for (const m of all) live = (await c.recover([...live, m])).messages;
    expect(hasFact(live)).toBe(true);
    expect(live.length).toBeLessThan(all.length);
  });

  it('a fact stated once in the compacted part of the head survives with LLMSummarizer and is lost past maxChars with truncation', async () => {
    // Message 160 of 300: after the drained half, so it is among what stage 2 summarizes,
    // and more than 500 characters into that part.
    const messages = supportConversation(300, 159);
    const cheap = mockModel(extractFacts, { modelId: 'cheap-summarizer' });
    const llm = await compactor({ budgetTokens: 4_000, summarizer: new LLMSummarizer<Msg>({ model: cheap }) }).recover(
      messages,
    );
    expect(llm.action).toBe('summarized');
    expect(cheap.calls).toHaveLength(1);
    expect(contentText(cheap.calls[0]?.messages[1]?.content ?? '')).toContain(ORDER);
    expect(cheap.calls[0]?.tools).toBeUndefined();
    expect(llm.summary).toContain('## Facts established');
    expect(llm.summary).toContain(ORDER);
    expect(hasFact(llm.messages)).toBe(true);

    const cut = await compactor({ budgetTokens: 4_000 }).recover(messages);
    expect(cut.action).toBe('summarized');
    expect(cut.summarizedMessages).toBe(llm.summarizedMessages);
    // The fact was among the summarized messages, past the first 500 characters of their text.
    const folded = messages.slice(cut.drainedMessages, cut.drainedMessages + cut.summarizedMessages);
    expect(folded.map(adapter.toText).join('\n').indexOf(ORDER)).toBeGreaterThan(500);
    expect(cut.summary?.length).toBe(500);
    expect(hasFact(cut.messages)).toBe(false);
  });

  it('a fact folded into a summary survives every later compaction with LLMSummarizer, and is lost with truncation past maxChars', async () => {
    // The first compaction summarizes the part of the head after the drained half, where the
    // fact is; the conversation then grows to 300 messages, compacted as it goes.
    const all = supportConversation(300, 159);
    const grow = async (summarizer: LLMSummarizer<Msg> | undefined) => {
      const c = compactor({ budgetTokens: 4_000, ...(summarizer === undefined ? {} : { summarizer }) });
      let live = all.slice(0, 200);
      const actions: string[] = [];
      for (const m of all.slice(200)) {
        const r = await c.recover([...live, m]);
        live = r.messages;
        actions.push(r.action);
      }
      return { live, actions };
    };
    const cheap = mockModel(extractFacts, { modelId: 'cheap-summarizer' });
    const llm = await grow(new LLMSummarizer<Msg>({ model: cheap }));
    expect(llm.actions).toContain('summarized');
    expect(llm.actions.filter((a) => a !== 'none').length).toBeGreaterThan(1);
    expect(hasFact(llm.live)).toBe(true);
    // The summary itself was never drained: it is still the first message after every compaction.
    expect(llm.live[0]?.kind).toBe('summary');

    const truncated = await grow(undefined);
    expect(truncated.actions).toContain('summarized');
    expect(hasFact(truncated.live)).toBe(false);
  });

  it('through createAgent({ compaction: { summarizer: new LLMSummarizer({ model: cheap }) } }): the main model still sees the fact, and the summary call is counted under the cheap model', async () => {
    const history: Message[] = Array.from({ length: 299 }, (_, i) =>
      i === 2
        ? { role: 'user', content: `For reference, my order id is ${ORDER}.` }
        : { role: i % 2 === 0 ? 'user' : 'assistant', content: chatter(i) },
    );
    history.push({ role: 'user', content: 'Where is my order now?' });
    const cheap = mockModel(extractFacts, { modelId: 'cheap-summarizer', provider: 'cheap' });
    const main = mockModel(['It ships tomorrow.'], { modelId: 'main-model' });
    const agent = createAgent({
      provider: main,
      instructions: 'You are a support agent.',
      compaction: {
        summarizer: new LLMSummarizer<Message>({ model: cheap }),
        contextWindow: 8_000,
        thresholdPercent: 0.5,
        protectedTokens: 500,
      },
    });
    const run = await agent.send(history);
    expect(run.text).toBe('It ships tomorrow.');
    expect(cheap.calls).toHaveLength(1);
    const seen = main.calls[0]?.messages ?? [];
    expect(seen.length).toBeLessThan(history.length);
    expect(seen.some((m) => m.metadata?.summary === true)).toBe(true);
    expect(seen.some((m) => contentText(m.content).includes(ORDER))).toBe(true);
    expect(run.usage.byModel['cheap-summarizer']?.calls).toBe(1);
    expect(run.usage.byModel['main-model']?.calls).toBe(1);
  });
});
