import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { rejection } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import { FileSessionStore } from './file-store.js';

const read = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }: Record<string, unknown>) => `// ${String(path)}\n${'let value = compute();\n'.repeat(200)}`,
};

/** A model that reads `n` files, then answers, for each turn. */
const reader = (n: number) =>
  mockModel((request) => {
    const sinceUser = request.messages.length - 1 - request.messages.map((m) => m.role).lastIndexOf('user');
    const reads = Math.floor(sinceUser / 2);
    return reads < n ? { toolCalls: [{ name: 'read_file', arguments: { path: `f${reads}.ts` } }] } : `Read ${n} files.`;
  });

describe('agent.session()', () => {
  it('continues the transcript across turns, with the instructions once, and saves it', async () => {
    const model = mockModel(['first answer', 'second answer']);
    const session = createAgent({ provider: model, instructions: 'Be brief.' }).session({ id: 's1' });
    await session.send('hello');
    const result = await session.send('and again');
    expect(result.text).toBe('second answer');
    expect(session.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(model.calls[1]?.messages.map((m) => m.content)).toEqual(['Be brief.', 'hello', 'first answer', 'and again']);
  });

  it('picks up a saved transcript from its store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-session-'));
    const agent = createAgent({ provider: mockModel(['one', 'two']) });
    await agent.session({ id: 'kept', store: new FileSessionStore({ dir }) }).send('hi');
    const again = agent.session({ id: 'kept', store: new FileSessionStore({ dir }) });
    await again.load();
    expect(again.messages.map((m) => m.content)).toEqual(['hi', 'one']);
    await again.send('more');
    expect(again.messages).toHaveLength(4);
  });

  it('compacts now with trigger manual, saves the result, and prunes by default', async () => {
    const session = createAgent({ provider: reader(4), tools: [read] }).session();
    const events: AgentEvent[] = [];
    session.on((e) => events.push(e));
    await session.send('read the files');
    events.length = 0;
    const before = session.messages.length;
    const result = await session.compact({ protectedTokens: 200 });
    expect(result).toMatchObject({ messagesBefore: before, messagesAfter: before, strategy: 'prune-tool-results' });
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(events.map((e) => e.type)).toEqual(['compaction.start', 'compaction.done']);
    expect(
      events.every((e) => (e.type === 'compaction.start' || e.type === 'compaction.done') && e.trigger === 'manual'),
    ).toBe(true);
    expect(
      session.messages.filter((m) => m.role === 'tool' && String(m.content).startsWith('[pruned: ')),
    ).not.toHaveLength(0);
  });

  it("runs the session's strategy, else the agent's, and options.strategy over both", async () => {
    const summarizer = mockModel(() => 'Summary.', { modelId: 'cheap' });
    const agent = createAgent({
      provider: reader(3),
      compaction: { strategy: twoPhaseStrategy({ model: summarizer }) },
    });
    const inherits = agent.session();
    await inherits.send('go');
    expect((await inherits.compact({ protectedTokens: 0 })).strategy).toBe('two-phase');
    const own = agent.session({ compaction: true });
    await own.send('go');
    expect((await own.compact()).strategy).toBe('prune-tool-results');
    expect((await own.compact({ strategy: twoPhaseStrategy({ model: summarizer }) })).strategy).toBe('two-phase');
  });

  it('does nothing for an empty session', async () => {
    const session = createAgent({ provider: mockModel([]) }).session();
    const events: AgentEvent[] = [];
    session.on((e) => events.push(e));
    expect(await session.compact()).toEqual({
      messagesBefore: 0,
      messagesAfter: 0,
      tokensBefore: 0,
      tokensAfter: 0,
      strategy: 'prune-tool-results',
    });
    expect(events).toEqual([]);
  });

  it('rejects compact() and a second turn with LOUSHO_SESSION_BUSY while a turn is running', async () => {
    const session = createAgent({ provider: mockModel([{ text: 'slow', delayMs: 200 }]) }).session();
    const turn = session.send('hi');
    await new Promise((r) => setTimeout(r, 20));
    expect((await rejection(session.compact())).code).toBe('LOUSHO_SESSION_BUSY');
    expect((await rejection(session.send('again'))).code).toBe('LOUSHO_SESSION_BUSY');
    await turn;
    expect(session.messages).toHaveLength(2);
  });

  it('clears the transcript and the store, and emits context.cleared', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-session-'));
    const store = new FileSessionStore({ dir });
    const session = createAgent({ provider: mockModel(['ok']) }).session({ id: 'c', store });
    const events: AgentEvent[] = [];
    const off = session.on((e) => events.push(e));
    await session.send('hello');
    await session.clear();
    expect(session.messages).toHaveLength(0);
    expect(await store.read('c')).toEqual({ entries: [], version: 0 });
    expect(events.at(-1)).toEqual({ type: 'context.cleared', sessionId: 'c' });
    off();
    await session.clear();
    expect(events.filter((e) => e.type === 'context.cleared')).toHaveLength(1);
  });

  it('streams a turn and reports its events to session listeners too', async () => {
    const session = createAgent({ provider: mockModel(['streamed reply']) }).session();
    const heard: string[] = [];
    session.on((e) => heard.push(e.type));
    const seen: string[] = [];
    const stream = session.stream('hi');
    for await (const event of stream) seen.push(event.type);
    expect((await stream.result).text).toBe('streamed reply');
    expect(seen).toEqual(heard);
    expect(seen).toContain('text.delta');
  });
});
