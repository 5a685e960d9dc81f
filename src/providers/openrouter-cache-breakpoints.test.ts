/**
 * Prompt-cache breakpoints through OpenRouter: an `anthropic/*` model gets Anthropic's
 * `cache_control` on content parts of the chat-completions body (OpenRouter's documented
 * form), request by request over a run that compacts; other models get none.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { LoopbackServer } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool, toolLoopChat } from '../test-support/tool-loop-chat.js';
import { createOpenRouter } from './builtin.js';

const serve = useLoopbackServers();

interface Part {
  type: string;
  text?: string;
  cache_control?: unknown;
}
interface ChatBody {
  messages: { role: string; content: string | Part[] | null }[];
}

/** Every cache_control of a body, as message:<i>:<part>. */
function marks(body: ChatBody): Map<string, unknown> {
  const out = new Map<string, unknown>();
  body.messages.forEach((m, i) => {
    if (Array.isArray(m.content))
      m.content.forEach((p, j) => {
        if (p.cache_control !== undefined) out.set(`message:${i}:${j}`, p.cache_control);
      });
  });
  return out;
}

/** The system prompt, the newest message and the message before the newest assistant message, each on its last part. */
function expectedPlaces(body: ChatBody): string[] {
  const last = body.messages.length - 1;
  const lastPart = (i: number) => {
    const content = body.messages[i]?.content;
    return `message:${i}:${Array.isArray(content) ? content.length - 1 : 0}`;
  };
  const places = [lastPart(0), lastPart(last)];
  let assistant = last;
  while (assistant > 0 && body.messages[assistant]?.role !== 'assistant') assistant--;
  if (assistant > 1) places.push(lastPart(assistant - 1));
  return [...new Set(places)].sort();
}

async function run(model: string, options: Parameters<typeof createOpenRouter>[0] = {}): Promise<LoopbackServer> {
  const server = await serve(toolLoopChat(14));
  await createAgent({
    provider: createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'x', ...options })(model),
    instructions: `You read code. ${'Follow the house rules. '.repeat(200)}`,
    tools: [readFileTool()],
    compaction: { contextWindow: 24_000 },
  }).send('Read the files one at a time.');
  return server;
}

/** The index of the first message of `body` that differs from `previous` (cache_control aside). */
function firstChange(previous: ChatBody | undefined, body: ChatBody): number {
  if (previous === undefined) return 0;
  const plain = (m: ChatBody['messages'][number]) => JSON.stringify(m).replaceAll(/,"cache_control":\{[^}]*\}/g, '');
  let i = 0;
  while (
    i < previous.messages.length &&
    i < body.messages.length &&
    plain(previous.messages[i] as ChatBody['messages'][number]) ===
      plain(body.messages[i] as ChatBody['messages'][number])
  )
    i++;
  return i;
}

describe('OpenRouter prompt-cache breakpoints', () => {
  it('marks the newest message on every request of an anthropic/* run, and after each compaction the newest message an earlier request marked before its first change', async () => {
    const server = await run('anthropic/claude-sonnet-4.5');
    const bodies = server.requests.map((r) => r.body as ChatBody);
    const marked = (body: ChatBody) => new Set([...marks(body).keys()].map((k) => Number(k.split(':')[1])));
    let compactions = 0;
    // The messages an earlier request marked whose prefix every request since has sent unchanged.
    let cached = new Set<number>();
    bodies.forEach((body, i) => {
      const found = marked(body);
      expect(found.size).toBeLessThanOrEqual(4);
      expect(found.has(body.messages.length - 1)).toBe(true);
      const first = firstChange(bodies[i - 1], body);
      if (i > 0 && first < (bodies[i - 1]?.messages.length ?? 0)) compactions++;
      cached = new Set([...cached].filter((m) => m < first));
      if (cached.size > 0) expect(found.has(Math.max(...cached)), `request ${i}`).toBe(true);
      for (const m of found) cached.add(m);
    });
    expect(compactions).toBeGreaterThan(0);
  });

  it('marks the system prompt, the newest message and the previous newest on every request of an anthropic/* run until it compacts', async () => {
    const server = await run('anthropic/claude-sonnet-4.5');
    const bodies = server.requests.map((r) => r.body as ChatBody);
    expect(bodies).toHaveLength(15);
    // The run compacted: some request shows an old tool result as a pruned marker.
    const textOf = (content: string | Part[] | null) =>
      typeof content === 'string' ? content : (content ?? []).map((p) => p.text ?? '').join('');
    const pruned = bodies.findIndex((b) => b.messages.some((m) => textOf(m.content).startsWith('[pruned:')));
    expect(pruned).toBeGreaterThan(0);
    for (const body of bodies.slice(0, pruned)) {
      const found = marks(body);
      expect(found.size).toBeLessThanOrEqual(4);
      expect([...found.keys()].sort()).toEqual(expectedPlaces(body));
      for (const mark of found.values()) expect(mark).toEqual({ type: 'ephemeral' });
      // Marked messages keep their text: a tool result's part is the result itself.
      const newest = body.messages[body.messages.length - 1];
      expect(newest?.role).toBe(body === bodies[0] ? 'user' : 'tool');
      expect(textOf(newest?.content ?? null)).toMatch(/^Read the files|^\/\/ src\/file-/);
    }
  });

  it('sends no cache_control to other models, and none with promptCache: false; the TTL asked for when set', async () => {
    const openai = await run('openai/gpt-4o');
    expect(openai.requests.every((r) => marks(r.body as ChatBody).size === 0)).toBe(true);
    expect(openai.requests.every((r) => typeof (r.body as ChatBody).messages[0]?.content === 'string')).toBe(true);
    const off = await run('anthropic/claude-sonnet-4.5', { promptCache: false });
    expect(off.requests.every((r) => marks(r.body as ChatBody).size === 0)).toBe(true);
    const hour = await run('anthropic/claude-sonnet-4.5', { promptCache: { ttl: '1h' } });
    for (const request of hour.requests) {
      const found = marks(request.body as ChatBody);
      expect(found.size).toBeGreaterThanOrEqual(2);
      for (const mark of found.values()) expect(mark).toEqual({ type: 'ephemeral', ttl: '1h' });
    }
  });
});
