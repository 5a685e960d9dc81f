import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { contentText } from '../messages/content.js';
import { createOpenAICompatible } from '../providers/openai-compatible.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { type ReceivedRequest, sendJson } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { mockModel } from '../testing/mock-model.js';
import { tool } from './tool.js';
import {
  cutToolResult,
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  MAX_TOOL_ARGUMENT_DEPTH,
  toolArgumentsProblem,
} from './tool-limits.js';

const serve = useLoopbackServers();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

/** An OpenAI-compatible server whose first reply calls `echo` with `argumentsJson` (as the wire carries it), then says 'ok'. */
async function modelCalling(argumentsJson: string) {
  const server = await serve((request: ReceivedRequest, response) => {
    const first = server.requests.length === 1;
    const message = first
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: argumentsJson } }],
        }
      : { role: 'assistant', content: 'ok' };
    sendJson(response, 200, {
      id: `r${server.requests.length}`,
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, finish_reason: first ? 'tool_calls' : 'stop', message }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    void request;
  });
  const provider = createOpenAICompatible({
    name: 'loop',
    baseURL: `${server.url}/v1`,
    apiKey: 'k',
    retry: { maxRetries: 0 },
  })('m');
  const ran: unknown[] = [];
  const echo = tool({
    name: 'echo',
    parameters: { type: 'object' },
    execute: (args) => {
      ran.push(args);
      return 'ran';
    },
  });
  return { server, agent: createAgent({ provider, tools: [echo] }), ran };
}

describe('tool arguments at the edge', () => {
  it('answers arguments nested 10,000 deep with an error result the model reads, not a network error', async () => {
    const depth = 10_000;
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const { server, agent, ran } = await modelCalling(`{"text":${deep}}`);
    const result = await agent.send('go');
    expect(result.text).toBe('ok');
    expect(ran).toEqual([]);
    const answer = result.messages.at(-2);
    expect(answer).toMatchObject({ role: 'tool', toolCallId: 'c1', isError: true });
    expect(contentText(answer?.content ?? '')).toContain(`nested more than ${MAX_TOOL_ARGUMENT_DEPTH} levels deep`);
    expect(contentText(answer?.content ?? '')).toContain('Call echo again with smaller, flatter arguments');
    // The next request carries small stand-in arguments, not the 10,000 levels.
    const second = JSON.stringify(server.requests[1]?.body);
    expect(second.length).toBeLessThan(5_000);
  });

  it('refuses arguments longer than the limit, keeping neither them nor the run from going on', async () => {
    const { server, agent, ran } = await modelCalling(JSON.stringify({ text: 'y'.repeat(3_000_000) }));
    const result = await agent.send('go');
    expect(ran).toEqual([]);
    expect(contentText(result.messages.at(-2)?.content ?? '')).toContain('longer than 1,000,000 characters');
    expect(JSON.stringify(server.requests[1]?.body).length).toBeLessThan(5_000);
    expect(JSON.stringify(result.messages).length).toBeLessThan(5_000);
  });

  it('passes arguments within the limits to the tool unchanged', async () => {
    const nested = JSON.parse(
      `${'{"a":'.repeat(MAX_TOOL_ARGUMENT_DEPTH - 1)}1${'}'.repeat(MAX_TOOL_ARGUMENT_DEPTH - 1)}`,
    );
    const { agent, ran } = await modelCalling(JSON.stringify(nested));
    await agent.send('go');
    expect(ran).toEqual([nested]);
  });

  it('checks depth and size without recursion, stopping at the limit', () => {
    let value: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(toolArgumentsProblem(value)).toContain('nested more than');
    expect(toolArgumentsProblem({ a: [1, 'two', { three: null }] })).toBeUndefined();
  });
});

describe('tool results over maxResultChars', () => {
  const dump = (chars: number, extra: { maxResultChars?: number } = {}) =>
    tool({ name: 'dump', parameters: { type: 'object' }, execute: () => 'x'.repeat(chars), ...extra });
  const script = () => mockModel([{ toolCalls: [{ id: 'c1', name: 'dump', arguments: {} }] }, 'done']);

  it('cuts a result over the default limit and says so in a marker the model reads', async () => {
    const result = await createAgent({
      provider: script(),
      tools: [dump(DEFAULT_MAX_TOOL_RESULT_CHARS + 500_000)],
    }).send('go');
    const text = contentText(result.messages.at(-2)?.content ?? '');
    expect(text.length).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_RESULT_CHARS);
    expect(text).toMatch(/\[cut: this result was 2,500,000 characters; only the first 2,000,000 are kept\./);
  });

  it("keeps a result to the tool's maxResultChars, or whole with Infinity", async () => {
    const cut = await createAgent({ provider: script(), tools: [dump(50_000, { maxResultChars: 1_000 })] }).send('go');
    expect(contentText(cut.messages.at(-2)?.content ?? '').length).toBeLessThanOrEqual(1_000);
    const whole = await createAgent({
      provider: script(),
      tools: [dump(DEFAULT_MAX_TOOL_RESULT_CHARS + 10, { maxResultChars: Number.POSITIVE_INFINITY })],
    }).send('go');
    expect(contentText(whole.messages.at(-2)?.content ?? '')).toHaveLength(DEFAULT_MAX_TOOL_RESULT_CHARS + 10);
    expect(() => dump(1, { maxResultChars: 0 })).toThrow(/maxResultChars must be a whole number >= 1/);
  });

  it('saves what the model reads: a session log holds the cut result, not a 20 MB one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-cut-'));
    folders.push(dir);
    const session = createAgent({ provider: script(), tools: [dump(20 * 1024 * 1024)] }).session({
      id: 'big',
      store: new FileSessionStore({ dir }),
    });
    await session.send('go');
    const bytes = statSync(join(dir, 'big.jsonl')).size;
    expect(bytes).toBeGreaterThan(DEFAULT_MAX_TOOL_RESULT_CHARS);
    expect(bytes).toBeLessThan(DEFAULT_MAX_TOOL_RESULT_CHARS + 100_000);
    const reloaded = createAgent({ provider: mockModel([]) }).session({
      id: 'big',
      store: new FileSessionStore({ dir }),
    });
    await reloaded.load();
    expect(contentText(reloaded.messages.at(-2)?.content ?? '')).toContain(
      '[cut: this result was 20,971,520 characters',
    );
  });

  it('never splits a surrogate pair when it cuts', () => {
    const end = cutToolResult('a'.repeat(1_000), 400).indexOf('\n[cut:');
    const text = `${'a'.repeat(end - 1)}😀${'b'.repeat(1_000 - end - 1)}`;
    const out = cutToolResult(text, 400);
    expect(out.indexOf('\n[cut:')).toBe(end - 1);
    expect(() => encodeURIComponent(out)).not.toThrow();
  });
});
