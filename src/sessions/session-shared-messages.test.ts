/**
 * A session's turn runs on the saved message objects themselves, not on copies, so the token
 * counts cached on them are kept and a turn costs what it adds, not the transcript. A hook that
 * changes a saved message does it as the reference says: a new object, or a new `content`,
 * and either is saved (as a rewrite), so the session and its log stay the same.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { Message } from '../messages/types.js';
import { mockModel } from '../testing/mock-model.js';
import { MemorySessionStore } from './store.js';

describe("a session turn's messages", () => {
  it('are the saved objects, so what a hook sees at the first step is what the session holds', async () => {
    const seen: Message[][] = [];
    const hook: AgentHook = { name: 'look', preGenerate: (ctx) => void seen.push([...ctx.request.messages]) };
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: mockModel(() => 'ok'), hooks: [hook] });
    const session = agent.session({ id: 's', store });
    await session.send('first');
    const saved = [...session.messages];
    await session.send('second');
    const atStart = seen.at(-1) ?? [];
    for (let i = 0; i < saved.length; i++) expect(atStart[i]).toBe(saved[i]);
  });

  it("saves a hook's new content for an old message, so a fresh process reads what the session holds", async () => {
    let turn = 0;
    const hook: AgentHook = {
      name: 'edit',
      preGenerate(ctx) {
        // The first user message gets a new content, assigned in place, on the second turn.
        if (turn === 2) (ctx.request.messages[0] as { content: string }).content = 'first (edited)';
      },
    };
    const store = new MemorySessionStore();
    const agent = createAgent({ provider: mockModel(() => 'ok'), hooks: [hook] });
    const session = agent.session({ id: 's', store });
    turn = 1;
    await session.send('first');
    turn = 2;
    await session.send('second');
    const reread = agent.session({ id: 's', store: store });
    await reread.load();
    expect(reread.messages.map((m) => m.content)).toEqual(session.messages.map((m) => m.content));
    expect(reread.messages[0]?.content).toBe('first (edited)');
  });
});
