import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { pinMessage } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { createAnthropic } from '../providers/anthropic.js';
import { sendJson } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool } from '../test-support/tool-loop-chat.js';
import { createCompactionHook } from './compaction-hook.js';
import { pruneOldReasoning } from './prune-reasoning.js';

const thinking = (text: string) => ({
  type: 'reasoning' as const,
  text,
  signature: `sig-${text}`,
  provider: 'anthropic',
});
const redacted = { type: 'reasoning' as const, text: '', encrypted: 'opaque', provider: 'anthropic' };
const plain = (text: string) => ({ type: 'reasoning' as const, text, provider: 'deepseek' });

/** Two finished turns with reasoning of every kind, then the newest turn, still calling tools. */
function transcript(): Message[] {
  return [
    { role: 'system', content: 'You read code.' },
    { role: 'user', content: 'Read a.ts.' },
    {
      role: 'assistant',
      content: [thinking('I will read a.ts.'), redacted],
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } }],
    },
    { role: 'tool', toolCallId: 'c1', content: 'export const a = 1;' },
    { role: 'assistant', content: [thinking('It exports a.'), { type: 'text', text: 'It exports a.' }] },
    { role: 'user', content: 'Read b.ts.' },
    {
      role: 'assistant',
      content: [plain('The user wants b.ts, so I call read_file with its path.')],
      toolCalls: [{ id: 'c2', name: 'read_file', arguments: { path: 'b.ts' } }],
    },
    { role: 'tool', toolCallId: 'c2', content: 'export const b = 2;' },
    { role: 'user', content: 'Now c.ts.' },
    {
      role: 'assistant',
      content: [thinking('Now c.ts.')],
      toolCalls: [{ id: 'c3', name: 'read_file', arguments: { path: 'c.ts' } }],
    },
    { role: 'tool', toolCallId: 'c3', content: 'export const c = 3;' },
  ];
}

describe('pruneOldReasoning', () => {
  it("drops older turns' sealed reasoning, marks their plain reasoning, and leaves the newest turn as it is", () => {
    const before = transcript();
    const { messages, changed } = pruneOldReasoning(before);
    expect(changed).toBe(3);
    expect(messages[2]).toEqual({ ...before[2], content: '' });
    expect(messages[4]).toEqual({ ...before[4], content: [{ type: 'text', text: 'It exports a.' }] });
    expect(messages[6]).toEqual({
      ...before[6],
      content: [{ type: 'reasoning', text: '[reasoning pruned: 55 chars]', provider: 'deepseek' }],
    });
    expect(messages.slice(8)).toEqual(before.slice(8));
    expect(messages[9]).toBe(before[9]);
    // Every call keeps its result, and the input is not modified.
    expect(() => validateMessages([...messages])).not.toThrow();
    expect(before).toEqual(transcript());
  });

  it('returns the same array when there is nothing to prune, and prunes nothing twice', () => {
    const once = pruneOldReasoning(transcript()).messages;
    const twice = pruneOldReasoning(once);
    expect(twice.changed).toBe(0);
    expect(twice.messages).toBe(once);
  });

  it('leaves pinned messages and the part of the transcript it is told to keep', () => {
    const before = transcript();
    before[2] = pinMessage(before[2] as Message);
    const { messages } = pruneOldReasoning(before, 5);
    expect(messages[2]).toBe(before[2]);
    expect(messages[4]).not.toBe(before[4]);
    expect(messages[6]).toBe(before[6]);
  });
});

const serve = useLoopbackServers();

describe('createAgent({ compaction: { pruneReasoning: true } })', () => {
  it("sends an earlier turn's thinking until a compaction runs, and after it only the newest turn's", async () => {
    let n = 0;
    const server = await serve((request, response) => {
      n++;
      const messages = (request.body as { messages: { role: string; content: { type: string }[] }[] }).messages;
      const lastUser = messages.findLastIndex((m) => m.role === 'user' && m.content.some((b) => b.type === 'text'));
      const calls = messages.slice(lastUser).filter((m) => m.role === 'assistant').length;
      const done = calls >= 6;
      sendJson(response, 200, {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          {
            type: 'thinking',
            thinking: `Step ${n}: ${'reasoning about the files. '.repeat(40)}`,
            signature: `sig${n}`,
          },
          done
            ? { type: 'text', text: 'Done.' }
            : { type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: `src/f${n}.ts` } },
        ],
        stop_reason: done ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      });
    });
    const compactions: number[] = [];
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      tools: [readFileTool(60)],
      reasoning: { budgetTokens: 1_024 },
      compaction: {
        contextWindow: 16_000,
        protectedTokens: 2_000,
        pruneReasoning: true,
        onCompaction: () => compactions.push(server.requests.length),
      },
    });
    const session = agent.session();
    await session.send('Read the first folder.');
    await session.send('Read the second folder.');
    expect(compactions.length).toBeGreaterThan(0);
    type Body = { messages: { role: string; content: { type: string }[] }[] };
    const thinkingIn = (body: Body, from: number, to: number) =>
      body.messages.slice(from, to).flatMap((m) => m.content.filter((b) => b.type === 'thinking')).length;
    const firstTurnEnd = (body: Body) =>
      body.messages.findIndex((m, i) => i > 0 && m.role === 'user' && m.content.some((b) => b.type === 'text'));
    // The first request of the second turn still carries the first turn's thinking (no compaction yet).
    const secondTurnFirst = server.requests.findIndex((r) => firstTurnEnd(r.body as Body) > 0);
    const early = server.requests[secondTurnFirst]?.body as Body;
    expect(thinkingIn(early, 0, firstTurnEnd(early))).toBe(7);
    // After the compaction of the second turn, none of the first turn's, all of the second's.
    // onCompaction runs before the request it compacted is sent: that request is the next one.
    const after = server.requests[compactions.at(-1) as number]?.body as Body;
    const end = firstTurnEnd(after);
    expect(thinkingIn(after, 0, end)).toBe(0);
    const ownTurn = after.messages.slice(end).filter((m) => m.role === 'assistant');
    expect(ownTurn.length).toBeGreaterThan(0);
    expect(ownTurn.every((m) => m.content[0]?.type === 'thinking')).toBe(true);
  });

  it('refuses a pruneReasoning that is not a boolean', () => {
    expect(() => createCompactionHook({ pruneReasoning: 'yes' as never })).toThrow(
      /pruneReasoning must be true or false/,
    );
  });
});
