/**
 * What the chat-completions providers put in the body for reasoning and prompt caching, as
 * a loopback server receives it: OpenAI's reasoning_effort and prompt_cache_key, OpenRouter's
 * reasoning object and session_id, and nothing a server was not documented to take.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool, toolLoopChat } from '../test-support/tool-loop-chat.js';
import { createOpenAI, createOpenRouter } from './builtin.js';
import { createOpenAICompatible } from './openai-compatible.js';

const serve = useLoopbackServers();
const bodies = (server: LoopbackServer) => server.requests.map((r) => r.body as Record<string, unknown>);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('reasoning options on the wire', () => {
  it("sends the agent's effort to OpenAI as reasoning_effort on every call, and a run's own effort in its place", async () => {
    const server = await serve(toolLoopChat(1));
    const agent = createAgent({
      provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5-mini'),
      tools: [readFileTool(5)],
      reasoning: { effort: 'low', budgetTokens: 4_096 },
    });
    await agent.send('Read one file.');
    expect(bodies(server).map((b) => b.reasoning_effort)).toEqual(['low', 'low']);
    expect(bodies(server).every((b) => b.reasoning === undefined && b.thinking === undefined)).toBe(true);
    await agent.send('Read one file, carefully.', { reasoning: { effort: 'high' } });
    expect(
      bodies(server)
        .slice(2)
        .map((b) => b.reasoning_effort),
    ).toEqual(['high', 'high']);
  });

  it('sends no reasoning field when none is asked for, and refuses an effort the API does not know', async () => {
    const server = await serve(toolLoopChat(0));
    const agent = createAgent({ provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-4o') });
    await agent.send('Hi.');
    expect(bodies(server)[0]).not.toHaveProperty('reasoning_effort');
    const error = await rejection(agent.send('Hi.', { reasoning: { effort: 'maximal' as 'high' } }));
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_INVALID' });
    expect(error.message).toMatch(/reasoning\.effort must be one of none, minimal, low, medium, high, xhigh/);
    expect(server.requests).toHaveLength(1);
  });

  it('sends OpenRouter its reasoning object: the effort, or the budget as max_tokens (first for anthropic/*)', async () => {
    const server = await serve(toolLoopChat(0));
    const openrouter = createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'x' });
    await createAgent({ provider: openrouter('openai/gpt-5-mini'), reasoning: { effort: 'medium' } }).send('Hi.');
    await createAgent({ provider: openrouter('deepseek/deepseek-r1'), reasoning: { budgetTokens: 2_048 } }).send('Hi.');
    await createAgent({
      provider: openrouter('anthropic/claude-sonnet-4.5'),
      reasoning: { effort: 'medium', budgetTokens: 4_096 },
    }).send('Hi.');
    await createAgent({
      provider: openrouter('openai/gpt-5-mini'),
      reasoning: { effort: 'high', budgetTokens: 4_096 },
    }).send('Hi.');
    expect(bodies(server).map((b) => b.reasoning)).toEqual([
      { effort: 'medium' },
      { max_tokens: 2_048 },
      { max_tokens: 4_096 },
      { effort: 'high' },
    ]);
    expect(bodies(server).every((b) => b.reasoning_effort === undefined)).toBe(true);
  });
});

describe('reasoning in replies', () => {
  it("streams OpenRouter's reasoning deltas as reasoning.delta events and gives them back in `reasoning` on the tool-call turn", async () => {
    let n = 0;
    const server = await serve((_request, response) => {
      n++;
      const chunk = (delta: unknown, finish: string | null = null) => ({
        id: `gen-${n}`,
        model: 'deepseek/deepseek-r1',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      const events =
        n === 1
          ? [
              chunk({ role: 'assistant', content: '', reasoning: 'The user wants ' }),
              chunk({ reasoning: 'one file.' }),
              chunk({
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
                  },
                ],
              }),
              chunk({}, 'tool_calls'),
            ]
          : [chunk({ content: 'Done.' }), chunk({}, 'stop')];
      void sendSse(response, [...events.map((data) => ({ data })), '[DONE]']);
    });
    const thoughts: string[] = [];
    const result = await createAgent({
      provider: createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'x' })('deepseek/deepseek-r1'),
      tools: [readFileTool(5)],
      onEvent: (e) => {
        if (e.type === 'reasoning.delta') thoughts.push(e.text);
      },
    }).send('Read a.ts.');
    expect(thoughts).toEqual(['The user wants ', 'one file.']);
    expect(result.messages[1]).toMatchObject({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'The user wants one file.', provider: 'openrouter' }],
    });
    const second = bodies(server)[1] as { messages: Record<string, unknown>[] };
    expect(second.messages[1]).toMatchObject({ role: 'assistant', reasoning: 'The user wants one file.' });
    expect(second.messages[1]).not.toHaveProperty('reasoning_content');
  });
});

describe('a stable prompt cache key', () => {
  it('sends OpenAI one prompt_cache_key for every call of a run, hashed, and another for the next run', async () => {
    const server = await serve(toolLoopChat(3));
    const agent = createAgent({
      provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5-mini'),
      tools: [readFileTool(5)],
    });
    const first = await agent.send('Read three files.');
    const keys = bodies(server).map((b) => b.prompt_cache_key);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(sha256(first.runId));
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    await agent.send('Read three files again.');
    expect(bodies(server)[4]?.prompt_cache_key).not.toBe(keys[0]);
  });

  it("keys every turn of a session by the session's id, which is never sent as it is", async () => {
    const server = await serve(toolLoopChat(1));
    const agent = createAgent({
      provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5-mini'),
      tools: [readFileTool(5)],
    });
    const session = agent.session({ id: 'customer-4711@example.com' });
    await session.send('Read a file.');
    await session.send('Read another.');
    const other = agent.session({ id: 'customer-4712@example.com' });
    await other.send('Read a file.');
    const keys = bodies(server).map((b) => b.prompt_cache_key);
    expect(keys.slice(0, 4)).toEqual(Array(4).fill(sha256('customer-4711@example.com')));
    expect(keys.slice(4)).toEqual(Array(2).fill(sha256('customer-4712@example.com')));
    expect(server.requests.some((r) => JSON.stringify(r.body).includes('customer-47'))).toBe(false);
  });

  it('sends the key to OpenRouter as session_id, to other servers not at all, and nowhere with promptCache: false', async () => {
    const server = await serve(toolLoopChat(0));
    await createAgent({
      provider: createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'x' })('openai/gpt-4o'),
    }).send('Hi.');
    await createAgent({ provider: createOpenAICompatible({ baseURL: `${server.url}/v1` })('local-model') }).send('Hi.');
    await createAgent({
      provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', promptCache: false })('gpt-4o'),
    }).send('Hi.');
    const [openrouter, local, off] = bodies(server);
    expect(openrouter?.session_id).toMatch(/^[0-9a-f]{64}$/);
    expect(openrouter).not.toHaveProperty('prompt_cache_key');
    expect(local).not.toHaveProperty('prompt_cache_key');
    expect(local).not.toHaveProperty('session_id');
    expect(off).not.toHaveProperty('prompt_cache_key');
  });

  it('refuses a promptCache value it does not know, naming the option', () => {
    expect(() => createOpenRouter({ promptCache: { ttl: '10m' } as never })).toThrow(
      /promptCache must be false or \{ ttl\?: '5m' \| '1h' \}/,
    );
  });
});
