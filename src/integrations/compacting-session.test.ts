import { describe, expect, it } from 'vitest';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { AgentsItem } from '../converters/agents-items-types.js';
import { fromAgentsItems } from '../converters/from-agents-items.js';
import { findPairingProblem, validateMessages } from '../messages/validate.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { MemorySessionStore } from '../sessions/store.js';
import { agentsTurnItems } from '../test-support/agents-turn-items.js';
import { thrown } from '../test-support/errors.js';
import { prose } from '../test-support/text.js';
import { mockModel } from '../testing/mock-model.js';
import type { AgentsSession } from './agents-session.js';
import { AgentsStoreSession } from './agents-store-session.js';
import { compactingSession } from './compacting-session.js';

/** An in-memory session with the Agents SDK's interface, copying items in and out as its MemorySession does. */
class ListSession implements AgentsSession {
  items: AgentsItem[] = [];
  clears = 0;
  /** Items handed to addItems, items popped, and reads of the whole history. */
  added = 0;
  popped = 0;
  wholeReads = 0;
  failNextAdd = false;
  async getSessionId() {
    return 'list';
  }
  async getItems(limit?: number) {
    if (limit === undefined) this.wholeReads++;
    return structuredClone(limit === undefined ? this.items : this.items.slice(-limit));
  }
  async addItems(items: AgentsItem[]) {
    if (this.failNextAdd) {
      this.failNextAdd = false;
      throw new Error('disk full');
    }
    this.added += items.length;
    this.items.push(...structuredClone(items));
  }
  async popItem() {
    if (this.items.length > 0) this.popped++;
    return this.items.pop();
  }
  async clearSession() {
    this.clears++;
    this.items = [];
  }
}

/** One turn as the Agents SDK's runner stores it (the shapes of @openai/agents-core 0.14.3): two reads and an answer. */
function turnItems(turn: number, size = 6_000): AgentsItem[] {
  const items: AgentsItem[] = [{ type: 'message', role: 'user', content: `question ${turn}` }];
  for (const k of [0, 1]) {
    const callId = `call_${turn}_${k}`;
    items.push({
      type: 'function_call',
      callId,
      name: 'read',
      arguments: JSON.stringify({ path: `f${turn}.${k}` }),
      status: 'completed',
    });
    items.push({
      type: 'function_call_result',
      name: 'read',
      callId,
      status: 'completed',
      output: { type: 'text', text: prose(turn * 2 + k, size) },
    });
  }
  items.push({
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: `answer ${turn}` }],
  });
  return items;
}

/** What the runner does around a session: read the history, store the turn, then runCompaction() when the session has it. */
async function runTurns(
  session: AgentsSession & { runCompaction?: () => Promise<unknown> },
  turns: number,
  size?: number,
) {
  const sizes: number[] = [];
  const reported: unknown[] = [];
  for (let turn = 0; turn < turns; turn++) {
    await session.getItems();
    await session.addItems(turnItems(turn, size));
    if (typeof session.runCompaction === 'function') reported.push(await session.runCompaction());
    sizes.push(estimateTokens(fromAgentsItems(await session.getItems()), 'gpt-4o-mini'));
  }
  return { sizes, reported };
}

describe('compactingSession()', () => {
  it('keeps the stored history under the threshold turn after turn, every call with its result', async () => {
    const inner = new ListSession();
    const session = compactingSession({
      session: inner,
      model: 'gpt-4o-mini',
      contextWindow: 12_000,
      protectedTokens: 3_000,
    });
    const { sizes } = await runTurns(session, 12);
    expect(Math.max(...sizes)).toBeLessThan(12_000 * 0.9);
    const messages = fromAgentsItems(inner.items);
    expect(findPairingProblem(messages)).toBeUndefined();
    expect(inner.items.filter((i) => i.type === 'function_call_result')).toHaveLength(24);
    expect(JSON.stringify(inner.items)).toContain('[pruned: read({\\"path\\":\\"f0.0\\"}) result');
  });

  it('leaves a history under the threshold as it is', async () => {
    const inner = new ListSession();
    await runTurns(compactingSession({ session: inner, contextWindow: 128_000 }), 3);
    expect(inner.clears).toBe(0);
    expect(inner.items).toEqual([0, 1, 2].flatMap((t) => turnItems(t)));
  });

  it('summarizes once and continues from its own rewrite, reporting the summarizer calls to the runner', async () => {
    const summarizer = mockModel(() => 'Summary: questions were answered by reading files.', { modelId: 'summarizer' });
    const inner = new ListSession();
    const session = compactingSession({
      session: inner,
      model: 'gpt-4o-mini',
      contextWindow: 4_000,
      protectedTokens: 1_000,
      strategy: twoPhaseStrategy({ model: summarizer }),
    });
    const { sizes, reported } = await runTurns(session, 30, 2_000);
    expect(Math.max(...sizes)).toBeLessThan(4_000 * 0.9);
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(summarizer.calls.length).toBeLessThan(10);
    expect(reported.filter((r) => r !== null)).toHaveLength(summarizer.calls.length);
    expect(reported.find((r) => r !== null)).toMatchObject({
      usage: { inputTokens: expect.any(Number), totalTokens: expect.any(Number) },
    });
    expect(inner.items[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: expect.stringContaining('[Conversation summary]'),
    });
  });

  it('compacts whatever the size with force: true or compact()', async () => {
    const inner = new ListSession();
    const session = compactingSession({ session: inner, contextWindow: 128_000, protectedTokens: 0 });
    await inner.addItems([...turnItems(0), ...turnItems(1)]);
    await session.runCompaction({ force: true });
    expect(inner.clears).toBe(1);
    expect(
      fromAgentsItems(inner.items).filter((m) => m.role === 'tool' && String(m.content).startsWith('[pruned:')),
    ).toHaveLength(4);
    const again = await session.compact();
    expect(again.tokensAfter).toBe(again.tokensBefore);
  });

  it('puts the old history back when storing the compacted one fails', async () => {
    const inner = new ListSession();
    const session = compactingSession({ session: inner, contextWindow: 128_000, protectedTokens: 0 });
    await inner.addItems(turnItems(0));
    const before = structuredClone(inner.items);
    inner.failNextAdd = true;
    await expect(session.compact()).rejects.toThrow('disk full');
    expect(inner.items).toEqual(before);
  });

  /** 1,000 turns stored through `session`; for each, the items runCompaction() added to and popped from `inner`. */
  async function longRun(inner: ListSession, session: ReturnType<typeof compactingSession>, turns = 1_000) {
    const writes: number[] = [];
    for (let turn = 0; turn < turns; turn++) {
      await session.addItems(turnItems(turn, 2_000));
      const before = inner.added + inner.popped;
      await session.runCompaction();
      writes.push(inner.added + inner.popped - before);
    }
    expect(findPairingProblem(fromAgentsItems(inner.items))).toBeUndefined();
    return writes;
  }

  it('over 1,000 turns in lean mode writes only the end each turn changed, not the whole history, and reads it whole only at the start', async () => {
    const inner = new ListSession();
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', contextWindow: 128_000, mode: 'lean' });
    const writes = await longRun(inner, session);
    expect(inner.items.filter((i) => i.type === 'function_call_result')).toHaveLength(2_000);
    // Only the first turn, all of whose 6 items lean changes, is written whole (and read, to be put back on a failure).
    expect(inner.clears).toBeLessThanOrEqual(1);
    expect(inner.wholeReads).toBeLessThanOrEqual(2);
    // A turn stores 6 items; lean prunes its two results, so at most those and what follows them are written again.
    expect(Math.max(...writes)).toBeLessThanOrEqual(2 * 6);
    expect(writes.filter((n) => n > 0).length).toBeGreaterThan(900);
    expect(JSON.stringify(inner.items.slice(-12))).toContain('[pruned');
  }, 120_000);

  it.each([
    ['in lean mode, each turn written from its question on', { contextWindow: 128_000, mode: 'lean' as const }],
    ['in the default mode, from an old result whose call is kept', { contextWindow: 8_000, protectedTokens: 2_000 }],
  ])('writes a result it pruned back under the name of the tool that made it, %s', async (_, options) => {
    const inner = new ListSession();
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', ...options });
    let partialWrites = 0;
    for (let turn = 0; turn < 40; turn++) {
      await session.addItems(agentsTurnItems(turn));
      await session.runCompaction();
      if (session.written > 0 && session.written < inner.items.length) partialWrites++;
    }
    // Some compactions rewrote only the end (in the default mode, from an old result whose call stays before it).
    expect(partialWrites).toBeGreaterThan(0);
    const results = inner.items.filter((i) => i.type === 'function_call_result') as { name: string; output: unknown }[];
    expect(results.filter((r) => JSON.stringify(r.output).includes('[pruned')).length).toBeGreaterThan(10);
    expect(new Set(results.map((r) => r.name))).toEqual(new Set(['read']));
  });

  it('maps the stored items to messages through reasoning items before a call and after an answer, so a compaction still writes only the end', async () => {
    const inner = new ListSession();
    const window = { contextWindow: 8_000, protectedTokens: 2_000 };
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', ...window });
    const reasoning = (id: string) => ({ type: 'reasoning', id, content: [] }) as AgentsItem;
    let partial = 0;
    let whole = 0;
    for (let turn = 0; turn < 200; turn++) {
      const [question, call, result, answer] = agentsTurnItems(turn) as [
        AgentsItem,
        AgentsItem,
        AgentsItem,
        AgentsItem,
      ];
      await session.addItems([question, reasoning(`rs_${turn}_a`), call, result, answer, reasoning(`rs_${turn}_b`)]);
      await session.runCompaction();
      if (session.written > 0 && session.written < inner.items.length) partial++;
      else if (session.written > 0) whole++;
    }
    // Most compactions change the newest half of the items or less (68 of 71 here): those are written from where they start.
    expect(partial).toBeGreaterThan(50);
    expect(whole).toBeLessThan(partial / 10);
    // Each kept turn's reasoning items are stored once, where they were: before its call, after its answer.
    const ids = inner.items.flatMap((i) => (i.type === 'reasoning' ? [(i as { id: string }).id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const turns = inner.items.flatMap((i) => (i.type === 'function_call' ? [(i as { callId: string }).callId] : []));
    for (const id of turns) expect(ids).toEqual(expect.arrayContaining([`rs_${id.slice(5)}_a`, `rs_${id.slice(5)}_b`]));
    expect(ids).toEqual(
      [...ids].sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]) || a.localeCompare(b)),
    );
    expect(findPairingProblem(fromAgentsItems(inner.items))).toBeUndefined();
  });

  it('over 1,000 turns in the default mode writes nothing on a turn that does not compact', async () => {
    const inner = new ListSession();
    let compactions = 0;
    const session = compactingSession({
      session: inner,
      model: 'gpt-4o-mini',
      contextWindow: 32_000,
      onCompaction: () => compactions++,
    });
    const writes = await longRun(inner, session);
    expect(compactions).toBeGreaterThan(5);
    expect(writes.filter((n) => n > 0).length).toBeLessThanOrEqual(compactions);
    expect(inner.wholeReads).toBeLessThanOrEqual(1 + compactions);
  }, 120_000);

  it('reads the whole session again when something else changed it, and keeps what it wrote', async () => {
    const inner = new ListSession();
    const session = compactingSession({ session: inner, contextWindow: 128_000, mode: 'lean' });
    const turn = async (n: number) => {
      await session.addItems(turnItems(n));
      const before = inner.wholeReads;
      await session.runCompaction();
      return inner.wholeReads - before;
    };
    await turn(0);
    expect([await turn(1), await turn(2)]).toEqual([0, 0]);
    const foreign: AgentsItem = { type: 'message', role: 'user', content: 'added by another process' };
    inner.items.push(foreign);
    expect(await turn(3)).toBeGreaterThan(0);
    expect(inner.items).toContainEqual(foreign);
    expect(findPairingProblem(fromAgentsItems(inner.items))).toBeUndefined();
  });

  it('refuses what is not a session with LOUSHO_CONFIG_INVALID', () => {
    const error = thrown(() => compactingSession({ session: {} as AgentsSession }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('new MemorySession()');
  });
});

describe('AgentsStoreSession', () => {
  it('keeps Agents SDK items in our store as messages and gives them back as they were', async () => {
    const store = new MemorySessionStore();
    const session = new AgentsStoreSession({ store, sessionId: 's1' });
    const reasoning = { type: 'reasoning', id: 'rs_1', content: [], providerData: { encrypted: 'x' } };
    const items = [...turnItems(0, 100), reasoning, ...turnItems(1, 100)];
    await session.addItems(items.slice(0, 4));
    await session.addItems(items.slice(4));
    expect(await session.getItems()).toEqual(items);
    expect(await session.getItems(2)).toEqual(items.slice(-2));
    const stored = await session.messages();
    validateMessages(stored);
    const turn = ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'];
    expect(stored?.map((m) => m.role)).toEqual([...turn, ...turn]);
    expect(await session.popItem()).toEqual(items.at(-1));
    expect(await session.getItems()).toEqual(items.slice(0, -1));
    await session.clearSession();
    expect(await session.getItems()).toEqual([]);
    expect(await session.getSessionId()).toBe('s1');
  });

  it('over 1,000 turns reads and stores only what each turn added: a log that grows with the items, not with their square', async () => {
    const store = new MemorySessionStore();
    const session = new AgentsStoreSession({ store, sessionId: 'long' });
    const converted: number[] = [];
    for (let turn = 0; turn < 1_000; turn++) {
      const before = session.converted;
      await session.getItems();
      await session.addItems(turnItems(turn, 500));
      await session.getItems();
      converted.push(session.converted - before);
    }
    // A turn adds 6 items, which are 4 of our messages (the two calls join the assistant message before them only within a batch).
    expect(Math.max(...converted.slice(1))).toBeLessThanOrEqual(6);
    const items = await session.getItems();
    expect(items).toHaveLength(6_000);
    const { entries } = await store.read('long');
    const logChars = entries.reduce((n, e) => n + e.length, 0);
    expect(logChars).toBeLessThan(2 * JSON.stringify(items).length);
  }, 120_000);

  it('is compacted like any other session', async () => {
    const session = compactingSession({
      session: new AgentsStoreSession({ store: new MemorySessionStore(), sessionId: 's' }),
      contextWindow: 12_000,
      protectedTokens: 3_000,
    });
    const { sizes } = await runTurns(session, 12);
    expect(Math.max(...sizes)).toBeLessThan(12_000 * 0.9);
  });
});

describe('compactingSession and the optional Session methods', () => {
  /** A session with the SDK's optional methods, as a remote session store implements them. */
  class RemoteLikeSession extends ListSession {
    prepared: AgentsItem[] = [];
    prepareHistoryItemForModelInput(item: AgentsItem): AgentsItem {
      this.prepared.push(item);
      return { ...item, providerData: undefined } as AgentsItem;
    }
    preserveReasoningItemIdsForPersistence() {
      return true;
    }
    async replaceHistoryWithCompaction(items: AgentsItem[]) {
      this.items = structuredClone(items);
    }
  }

  it('hands each optional method the wrapped session has to it, so the runner sees the same capabilities', async () => {
    const inner = new RemoteLikeSession();
    const session = compactingSession({ session: inner, contextWindow: 8_000 });
    const item = { role: 'user', content: 'hi', providerData: { id: 'x' } } as AgentsItem;
    expect(session.prepareHistoryItemForModelInput?.(item)).toEqual({
      role: 'user',
      content: 'hi',
      providerData: undefined,
    });
    expect(inner.prepared).toEqual([item]);
    expect(session.preserveReasoningItemIdsForPersistence?.()).toBe(true);
    await session.replaceHistoryWithCompaction?.([{ role: 'user', content: 'kept' } as AgentsItem]);
    expect(inner.items).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('leaves out the optional methods the wrapped session lacks, so the runner takes its fallback', () => {
    const session = compactingSession({ session: new ListSession(), contextWindow: 8_000 });
    for (const name of ['prepareHistoryItemForModelInput', 'replaceHistoryWithCompaction', 'applyHistoryTransaction']) {
      expect(name in session).toBe(false);
    }
  });
});
