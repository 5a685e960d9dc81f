import { describe, expect, it } from 'vitest';
import type { AgentsItem } from '../converters/agents-items-types.js';
import { fromAgentsItems } from '../converters/from-agents-items.js';
import { findPairingProblem } from '../messages/validate.js';
import { decodeEntry } from '../sessions/records.js';
import { MemorySessionStore } from '../sessions/store.js';
import { agentsTurnItems } from '../test-support/agents-turn-items.js';
import { countingReads, type StoreRead } from '../test-support/long-session.js';
import { freshSpec, openStore } from '../test-support/store-backends.js';
import { AgentsStoreSession } from './agents-store-session.js';
import { compactingSession } from './compacting-session.js';

describe('AgentsStoreSession.replaceNewestItems()', () => {
  it('replaces the newest items in one log entry, which another session on the same store reads', async () => {
    const store = new MemorySessionStore();
    const session = new AgentsStoreSession({ store, sessionId: 's' });
    for (let turn = 0; turn < 3; turn++) await session.addItems(agentsTurnItems(turn, 100));
    const before = (await store.read('s')).entries.length;
    const answer: AgentsItem = {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'a shorter answer' }],
    };
    await session.replaceNewestItems(1, [answer]);
    expect((await store.read('s')).entries.length).toBe(before + 1);
    const expected = [
      ...agentsTurnItems(0, 100),
      ...agentsTurnItems(1, 100),
      ...agentsTurnItems(2, 100).slice(0, 3),
      answer,
    ];
    expect(await session.getItems()).toEqual(expected);
    expect(await new AgentsStoreSession({ store, sessionId: 's' }).getItems()).toEqual(expected);
  });

  it('serves what another session on the same store added since, not the items it read before', async () => {
    const store = new MemorySessionStore();
    const first = new AgentsStoreSession({ store, sessionId: 's' });
    const second = new AgentsStoreSession({ store, sessionId: 's' });
    await first.addItems(agentsTurnItems(0, 100));
    expect(await second.getItems()).toHaveLength(4);
    await second.addItems(agentsTurnItems(1, 100));
    expect(await first.getItems()).toEqual([...agentsTurnItems(0, 100), ...agentsTurnItems(1, 100)]);
    await first.replaceNewestItems(4, agentsTurnItems(2, 100));
    expect(await second.getItems()).toEqual([...agentsTurnItems(0, 100), ...agentsTurnItems(2, 100)]);
  });
});

describe('AgentsStoreSession, items and the messages they make', () => {
  /** A question and an assistant message with text and two tool calls (one message, three items). */
  const items = (): AgentsItem[] => [
    { type: 'message', role: 'user', content: 'look at both' },
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'reading' }] },
    { type: 'function_call', callId: 'a', name: 'read', arguments: '{"f":"a"}', status: 'completed' },
    { type: 'function_call', callId: 'b', name: 'read', arguments: '{"f":"b"}', status: 'completed' },
  ];
  const call: AgentsItem = { type: 'function_call', callId: 'c', name: 'grep', arguments: '{}', status: 'completed' };

  it('replaces one item of a message of several: the message is written again with its kept items', async () => {
    const store = new MemorySessionStore();
    const session = new AgentsStoreSession({ store, sessionId: 's' });
    await session.addItems(items());
    expect(await session.messages()).toHaveLength(2);
    await session.getItems();
    const converted = session.converted;
    await session.replaceNewestItems(1, [call]);
    const expected = [...items().slice(0, 3), call];
    expect(await session.getItems()).toEqual(expected);
    expect(session.converted - converted, 'messages written as items again').toBe(1);
    expect(await new AgentsStoreSession({ store, sessionId: 's' }).getItems()).toEqual(expected);
    const last = decodeEntry((await store.read('s')).entries.at(-1) as string);
    expect(last).toMatchObject([{ type: 'tail', keep: 1 }]);
    expect((await session.messages())[1]).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'a' }, { id: 'c' }] });
  });

  it('pops the newest item, inside a message too, as a tail entry another session reads', async () => {
    const store = new MemorySessionStore();
    const session = new AgentsStoreSession({ store, sessionId: 's' });
    await session.addItems(items());
    expect(await session.popItem()).toEqual(items()[3]);
    expect(await session.popItem()).toEqual(items()[2]);
    expect(await session.getItems()).toEqual(items().slice(0, 2));
    expect(await session.popItem()).toEqual(items()[1]);
    expect(await new AgentsStoreSession({ store, sessionId: 's' }).getItems()).toEqual(items().slice(0, 1));
    await session.addItems([call]);
    expect(await session.getItems()).toEqual([items()[0], call]);
    expect(await session.popItem()).toEqual(call);
    expect(await session.popItem()).toEqual(items()[0]);
    expect(await session.popItem()).toBeUndefined();
    expect(await new AgentsStoreSession({ store, sessionId: 's' }).getItems()).toEqual([]);
    const records = (await store.read('s')).entries.flatMap(decodeEntry);
    expect(records.filter((r) => r.type === 'tail')).toHaveLength(5);
    expect(records.some((r) => r.type === 'snapshot' || r.type === 'rewrite')).toBe(false);
  });
});

describe('compactingSession() over AgentsStoreSession', () => {
  it('stores each turn of lean mode as a few log entries, not one rewrite per item it replaces', async () => {
    const store = new MemorySessionStore();
    const inner = new AgentsStoreSession({ store, sessionId: 'lean' });
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', contextWindow: 128_000, mode: 'lean' });
    const entries: number[] = [];
    for (let turn = 0; turn < 60; turn++) {
      const before = (await store.read('lean')).entries.length;
      await session.getItems();
      await session.addItems(agentsTurnItems(turn));
      await session.runCompaction();
      entries.push((await store.read('lean')).entries.length - before);
    }
    // The turn's items, then at most one entry that replaces the end lean pruned.
    expect(Math.max(...entries)).toBeLessThanOrEqual(2);
    expect(session.written).toBeGreaterThan(0);
    const items = await new AgentsStoreSession({ store, sessionId: 'lean' }).getItems();
    expect(items.filter((i) => i.type === 'function_call_result')).toHaveLength(60);
    expect(JSON.stringify(items.slice(-8))).toContain('[pruned');
    expect(findPairingProblem(fromAgentsItems(items))).toBeUndefined();
  });
});

describe('lean mode over AgentsStoreSession, turn after turn', () => {
  it('writes per turn what the turn changed, a snapshot only now and then, and opens from it', async () => {
    const store = new MemorySessionStore();
    const inner = new AgentsStoreSession({ store, sessionId: 'long' });
    const session = compactingSession({ session: inner, model: 'gpt-4o-mini', contextWindow: 128_000, mode: 'lean' });
    const turns: { written: number; largest: number; snapshot: boolean }[] = [];
    for (let turn = 0; turn < 300; turn++) {
      const before = (await store.read('long')).entries.length;
      await session.getItems();
      await session.addItems(agentsTurnItems(turn));
      await session.runCompaction();
      const written = (await store.read('long')).entries.slice(before);
      const snapshot = written.some((e) => decodeEntry(e).some((r) => r.type === 'snapshot'));
      const largest = Math.max(...written.map((e) => e.length));
      turns.push({ written: written.reduce((n, e) => n + e.length, 0), largest, snapshot });
    }
    const [early, late] = [turns.slice(10, 60), turns.slice(-50)];
    const mean = (part: typeof turns) => part.reduce((n, t) => n + t.written, 0) / part.length;
    const largest = (part: typeof turns) => Math.max(...part.filter((t) => !t.snapshot).map((t) => t.largest));
    // A turn's entries are its items and the few it replaced, whatever the session's length;
    // the snapshots come ever further apart, so what a turn writes on average does not grow either.
    expect(largest(late)).toBeLessThanOrEqual(2 * largest(early));
    expect(mean(late)).toBeLessThanOrEqual(2 * mean(early));
    const snapshots = turns.filter((t) => t.snapshot).length;
    expect(snapshots).toBeGreaterThan(0);
    expect(snapshots).toBeLessThan(30);
    // Opening it reads from the newest snapshot: a small part of the log, which holds every result whole.
    const size = (entries: string[]) => entries.reduce((n, e) => n + e.length, 0);
    expect(size((await store.readLatest('long')).entries) * 5).toBeLessThan(size((await store.read('long')).entries));
    // Reading the items costs what changed too: about the 4 messages added and the 4 rewritten each turn.
    expect(inner.converted).toBeLessThan(300 * 10);
    const items = await new AgentsStoreSession({ store, sessionId: 'long' }).getItems();
    expect(items).toEqual(await inner.getItems());
    expect(items.filter((i) => i.type === 'function_call_result')).toHaveLength(300);
    expect(findPairingProblem(fromAgentsItems(items))).toBeUndefined();
  });
});

describe('AgentsStoreSession over a long plain session (no compaction, so no snapshot)', () => {
  it.each(['memory', 'file', 'sqlite'] as const)(
    'reads from its %s store per turn what the turn added, not the whole log, as writer and as reader',
    async (kind) => {
      const open = await openStore(await freshSpec(kind));
      try {
        const [writes, reads]: StoreRead[][] = [[], []];
        const writer = new AgentsStoreSession({ store: countingReads(open.store, writes), sessionId: 'plain' });
        // Another process following the same session: it reads what the writer added.
        const reader = new AgentsStoreSession({ store: countingReads(open.store, reads), sessionId: 'plain' });
        const perTurn: { writer: number; reader: number }[] = [];
        const bytes = (list: StoreRead[]) => list.splice(0).reduce((n, r) => n + r.bytes, 0);
        for (let turn = 0; turn < 400; turn++) {
          // As the runner does: read the history, store the question, then the call, its result and the answer.
          await writer.getItems();
          const items = agentsTurnItems(turn);
          await writer.addItems(items.slice(0, 1));
          await writer.addItems(items.slice(1));
          expect(await reader.getItems(4)).toEqual(items);
          perTurn.push({ writer: bytes(writes), reader: bytes(reads) });
        }
        // A turn writes about 2,100 bytes, in 2 entries; the log holds 400 of them (840 KB) by the end.
        const most = (from: number, to: number, who: 'writer' | 'reader') =>
          Math.max(...perTurn.slice(from, to).map((t) => t[who]));
        expect(most(350, 400, 'reader')).toBeLessThan(5_000);
        expect(most(350, 400, 'reader')).toBeLessThanOrEqual(2 * most(10, 60, 'reader'));
        // The writer knows what it wrote: it reads nothing back.
        expect(most(0, 400, 'writer')).toBe(0);
        expect(await reader.getItems()).toEqual(await writer.getItems());
      } finally {
        await open.close();
      }
    },
  );
});
