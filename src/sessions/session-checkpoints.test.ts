import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { Tool } from '../executor/tool.js';
import { rejection } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import { decodeEntry } from './records.js';
import { MemorySessionStore } from './store.js';

/** A tool whose every result carries a marker naming its call, to find it in the store's entries. */
const fetchTool: Tool<Record<string, unknown>, string> = {
  name: 'fetch',
  parameters: { type: 'object', properties: { n: { type: 'number' } } },
  execute: ({ n }, { toolCallId }) => `result-of-${toolCallId} ${'data '.repeat(200)} #${String(n)}`,
};

/** A model that makes `steps` tool calls per turn (ids unique across turns), then answers. */
function stepper(steps: number, fail?: { atCall: number }) {
  let calls = 0;
  return mockModel((request) => {
    calls++;
    if (fail !== undefined && calls === fail.atCall) return new Error('the provider is down');
    const turn = request.messages.filter((m) => m.role === 'user').length;
    const sinceUser = request.messages.length - 1 - request.messages.map((m) => m.role).lastIndexOf('user');
    const step = Math.floor(sinceUser / 2);
    if (step >= steps) return `turn ${turn} done`;
    return { toolCalls: [{ id: `t${turn}s${step}`, name: 'fetch', arguments: { n: step } }] };
  });
}

describe('a session with a store saves after every step', () => {
  it('lists a checkpoint per step: turn start, each reply, each step of tool results', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(2), tools: [fetchTool] }).session({ id: 's', store });
    await session.send('go');
    const checkpoints = await session.checkpoints();
    expect(checkpoints.map((c) => [c.turn, c.step, c.messageCount])).toEqual([
      [1, 0, 1],
      [1, 1, 2],
      [1, 1, 3],
      [1, 2, 4],
      [1, 2, 5],
      [1, 3, 6],
    ]);
    expect(new Set(checkpoints.map((c) => c.id)).size).toBe(checkpoints.length);
    for (let i = 1; i < checkpoints.length; i++) {
      expect(checkpoints[i]?.tokens).toBeGreaterThan(checkpoints[i - 1]?.tokens ?? 0);
      expect(checkpoints[i]?.time).toBeGreaterThanOrEqual(checkpoints[i - 1]?.time ?? 0);
    }
  });

  it('writes what each step added, never the transcript again, when nothing compacted', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(5), tools: [fetchTool] }).session({ id: 's', store });
    await session.send('go');
    await session.send('again');
    const { entries } = await store.read('s');
    for (const entry of entries) {
      expect(decodeEntry(entry).some((r) => r.type === 'rewrite')).toBe(false);
      expect(entry.match(/result-of-/g)?.length ?? 0).toBeLessThanOrEqual(1); // each result is written once
    }
    expect(entries.join('\n').match(/result-of-/g)).toHaveLength(10);
  });

  it('saves a compaction inside the turn as a snapshot of the whole transcript, and reopens the same', async () => {
    const store = new MemorySessionStore();
    const agent = createAgent({
      provider: stepper(8),
      tools: [fetchTool],
      compaction: { contextWindow: 2_000, thresholdPercent: 0.5, protectedTokens: 400 },
    });
    const session = agent.session({ id: 's', store });
    await session.send('go');
    const records = (await store.read('s')).entries.flatMap(decodeEntry);
    expect(records.filter((r) => r.type === 'snapshot').length).toBeGreaterThan(0);
    const again = agent.session({ id: 's', store });
    await again.load();
    expect(again.messages).toEqual(session.messages);
    expect(again.messages.some((m) => m.role === 'tool' && String(m.content).startsWith('[pruned: '))).toBe(true);
  });

  it('reports running during a turn and idle after it', async () => {
    const session = createAgent({ provider: mockModel([{ text: 'slow', delayMs: 50 }]) }).session();
    expect(session.status).toBe('idle');
    const turn = session.send('hi');
    await new Promise((r) => setTimeout(r, 10));
    expect(session.status).toBe('running');
    await turn;
    expect(session.status).toBe('idle');
  });
});

describe('a turn that did not finish', () => {
  it('stays pending after a failed step; send() and compact() reject with LOUSHO_SESSION_TURN_PENDING', async () => {
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: stepper(3, { atCall: 3 }), tools: [fetchTool] });
    const session = agent.session({ id: 's', store });
    expect((await rejection(session.send('go'))).code).toBe('LOUSHO_PROVIDER_FAILED');
    const reopened = agent.session({ id: 's', store });
    await reopened.load();
    expect(reopened.status).toBe('turn_pending');
    expect(reopened.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    for (const attempt of [() => reopened.send('next'), () => reopened.compact(), () => reopened.stream('x').result]) {
      const error = await rejection(attempt());
      expect(error.code).toBe('LOUSHO_SESSION_TURN_PENDING');
      expect(error.message).toContain('session.resume()');
    }
  });

  it('resume() continues from the last checkpoint without running the finished steps again', async () => {
    const store = new MemorySessionStore();
    let runs = 0;
    const counted = {
      ...fetchTool,
      execute: (args: Record<string, unknown>, ctx: { toolCallId: string }) => {
        runs++;
        return fetchTool.execute(args, ctx);
      },
    };
    const model = stepper(3, { atCall: 3 });
    const session = createAgent({ provider: model, tools: [counted] }).session({ id: 's', store });
    await rejection(session.send('go'));
    expect(runs).toBe(2);
    const result = await session.resume();
    expect(result.text).toBe('turn 1 done');
    expect(runs).toBe(3);
    expect(session.status).toBe('idle');
    expect(model.calls.at(-2)?.messages).toHaveLength(5); // the retried call saw both finished steps
    expect((await rejection(session.resume())).code).toBe('LOUSHO_SESSION_IDLE');
  });

  it('cancelPending() drops the turn back to the end of the last finished turn', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(2, { atCall: 5 }), tools: [fetchTool] }).session({
      id: 's',
      store,
    });
    await session.send('first');
    const before = [...session.messages];
    await rejection(session.send('second'));
    expect(session.status).toBe('turn_pending');
    await session.cancelPending();
    expect(session.status).toBe('idle');
    expect(session.messages).toEqual(before);
    await session.cancelPending(); // nothing pending: nothing happens
    expect(session.messages).toEqual(before);
  });
});

describe('checkpoint history', () => {
  it('rewind() makes a checkpoint current again and keeps the later ones until clear()', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(1), tools: [fetchTool] }).session({ id: 's', store });
    await session.send('first');
    const endOfFirst = (await session.checkpoints()).at(-1);
    const firstMessages = [...session.messages];
    await session.send('second');
    const all = await session.checkpoints();
    await session.rewind(endOfFirst?.id as string);
    expect(session.messages).toEqual(firstMessages);
    expect(session.status).toBe('idle');
    expect(await session.checkpoints()).toEqual(all);
    await session.send('second, again');
    expect(session.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'second, again']);
    expect((await session.checkpoints()).length).toBeGreaterThan(all.length);
  });

  it('rewinding into a turn leaves it pending, for resume()', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(2), tools: [fetchTool] }).session({ id: 's', store });
    await session.send('go');
    const midTurn = (await session.checkpoints()).find((c) => c.step === 1 && c.messageCount === 3);
    await session.rewind(midTurn?.id as string);
    expect(session.status).toBe('turn_pending');
    expect(session.messages).toHaveLength(3);
    expect((await session.resume()).text).toBe('turn 1 done');
  });

  it('rejects an unknown checkpoint with LOUSHO_CONFIG_INVALID', async () => {
    const session = createAgent({ provider: mockModel(['ok']) }).session();
    await session.send('hi');
    expect((await rejection(session.rewind('cp-999'))).code).toBe('LOUSHO_CONFIG_INVALID');
  });

  it('clear() deletes every checkpoint and the history with the transcript', async () => {
    const store = new MemorySessionStore();
    const session = createAgent({ provider: stepper(1), tools: [fetchTool] }).session({ id: 's', store });
    await session.send('go');
    await session.clear();
    expect(await session.checkpoints()).toEqual([]);
    expect(await store.read('s')).toEqual({ entries: [], version: 0 });
    await session.send('fresh');
    expect((await session.checkpoints())[0]).toMatchObject({ turn: 1, step: 0, messageCount: 1 });
  });
});
