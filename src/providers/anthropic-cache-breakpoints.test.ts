/**
 * The Anthropic provider's prompt-cache breakpoints, request by request, over a run that
 * compacts several times: the request bodies a loopback server received, and what
 * Anthropic's cache (as its documentation describes it: AnthropicCacheModel) makes of them.
 */
import { describe, expect, it } from 'vitest';
import { runAnthropicBill } from '../../bench/anthropic-bill.js';
import { createAgent } from '../agent/create-agent.js';
import { AnthropicCacheModel, type AnthropicCacheUsage } from '../test-support/anthropic-cache-model.js';
import { type AnthropicCacheRun, runAnthropicCacheRun } from '../test-support/anthropic-cache-run.js';
import { sendJson } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool } from '../test-support/tool-loop-chat.js';
import { createAnthropic } from './anthropic.js';

const serve = useLoopbackServers();

interface Block {
  type: string;
  cache_control?: unknown;
}
interface Body {
  tools: Block[];
  system: Block[] | string;
  messages: { role: string; content: Block[] }[];
}

/** Every cache_control of a body, named by where it is: tool:<i>, system:<i>, message:<i>:<block>. */
function marks(body: Body): Map<string, unknown> {
  const out = new Map<string, unknown>();
  body.tools.forEach((t, i) => {
    if (t.cache_control !== undefined) out.set(`tool:${i}`, t.cache_control);
  });
  if (typeof body.system !== 'string')
    body.system.forEach((b, i) => {
      if (b.cache_control !== undefined) out.set(`system:${i}`, b.cache_control);
    });
  body.messages.forEach((m, i) => {
    m.content.forEach((b, j) => {
      if (b.cache_control !== undefined) out.set(`message:${i}:${j}`, b.cache_control);
    });
  });
  return out;
}

/** Where the breakpoints belong: the last tool, the system prompt, the newest message, and the message before the newest assistant message. */
function expectedPlaces(body: Body): string[] {
  const last = body.messages.length - 1;
  const lastBlock = (i: number) => `message:${i}:${(body.messages[i]?.content.length ?? 1) - 1}`;
  const places = [`tool:${body.tools.length - 1}`, 'system:0', lastBlock(last)];
  let assistant = last;
  while (assistant >= 0 && body.messages[assistant]?.role !== 'assistant') assistant--;
  if (assistant > 0) places.push(lastBlock(assistant - 1));
  return places.sort();
}

const bodyOf = (run: AnthropicCacheRun, i: number) => run.requests[i]?.body as Body;

/** The requests at which the transcript was rewritten: an earlier message differs from the previous request's. */
function rewrites(run: AnthropicCacheRun): number[] {
  const out: number[] = [];
  const strip = (body: Body) => JSON.stringify(body.messages).replaceAll(/,"cache_control":\{[^}]*\}/g, '');
  for (let i = 1; i < run.requests.length; i++) {
    const before = bodyOf(run, i - 1).messages;
    const now = bodyOf(run, i).messages;
    const prefix = strip({ messages: now.slice(0, before.length) } as Body);
    if (prefix !== strip({ messages: before } as Body)) out.push(i);
  }
  return out;
}

const total = (c: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number }) =>
  c.input_tokens + c.cache_read_input_tokens + c.cache_creation_input_tokens;

describe('Anthropic prompt-cache breakpoints across compactions', () => {
  it('puts at most four breakpoints on every request, always one on the newest message; until the first compaction on the tools, the system prompt, the newest message and the one before the newest answer', async () => {
    const run = await runAnthropicCacheRun(20, {}, { compaction: { contextWindow: 24_000 } });
    expect(run.requests).toHaveLength(21);
    const rewritten = rewrites(run);
    expect(rewritten.length).toBeGreaterThanOrEqual(3);
    run.requests.forEach((request, i) => {
      const body = request.body as Body;
      const found = marks(body);
      expect(found.size).toBeLessThanOrEqual(4);
      const newest = body.messages.length - 1;
      expect(found.has(`message:${newest}:${(body.messages[newest]?.content.length ?? 1) - 1}`)).toBe(true);
      if (i < (rewritten[0] ?? 0)) expect([...found.keys()].sort()).toEqual(expectedPlaces(body));
      for (const mark of found.values()) expect(mark).toEqual({ type: 'ephemeral' });
    });
  });

  it('reads, on every request, the longest prefix the cache holds before the first block it changed: all of the previous request when it only appended, and after each compaction the prefix up to where it rewrote', async () => {
    const run = await runAnthropicCacheRun(20, {}, { compaction: { contextWindow: 24_000 } });
    const rewritten = new Set(rewrites(run));
    expect(rewritten.size).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < run.cache.length; i++) {
      const read = run.cache[i]?.cache_read_input_tokens ?? 0;
      expect(read, `request ${i}${rewritten.has(i) ? ' (after a compaction)' : ''}`).toBe(run.best[i]);
      if (!rewritten.has(i)) expect(read).toBe(total(run.cache[i - 1] as (typeof run.cache)[number]));
    }
    // After the first compaction, each later one reads back what the one before it rewrote.
    const later = [...rewritten].slice(1);
    expect(later.every((i) => (run.best[i] ?? 0) > total(run.cache[0] as (typeof run.cache)[number]))).toBe(true);
    expect(run.usage.cachedInputTokens / run.usage.inputTokens).toBeGreaterThan(0.6);
  });

  it('sends no cache_control with promptCache: false, and the TTL asked for on every breakpoint', async () => {
    const off = await runAnthropicCacheRun(4, { promptCache: false }, { compaction: { contextWindow: 24_000 } });
    expect(off.requests.every((r) => marks(r.body as Body).size === 0)).toBe(true);
    expect(off.requests.every((r) => typeof (r.body as Body).system === 'string')).toBe(true);
    expect(off.usage.cachedInputTokens).toBe(0);
    const hour = await runAnthropicCacheRun(4, { promptCache: { ttl: '1h' } });
    for (const request of hour.requests) {
      const found = marks(request.body as Body);
      expect(found.size).toBeGreaterThanOrEqual(3);
      for (const mark of found.values()) expect(mark).toEqual({ type: 'ephemeral', ttl: '1h' });
    }
  });

  it("still reads the previous request when a step adds more blocks than the API's 20-block lookback (12 parallel calls)", async () => {
    const cache = new AnthropicCacheModel();
    const usages: AnthropicCacheUsage[] = [];
    let n = 0;
    const server = await serve((request, response) => {
      usages.push(cache.accept(request.body as Record<string, unknown>));
      n++;
      const calls = Array.from({ length: 12 }, (_, i) => ({
        type: 'tool_use',
        id: `toolu_${n}_${i}`,
        name: 'read_file',
        input: { path: `src/dir-${n}/file-${i}.ts` },
      }));
      sendJson(response, 200, {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: n <= 3 ? calls : [{ type: 'text', text: 'Done.' }],
        stop_reason: n <= 3 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      });
    });
    await createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      instructions: `You read code. ${'Follow the house rules. '.repeat(200)}`,
      tools: [readFileTool(20)],
    }).send('Read every file of the three folders.');
    expect(usages).toHaveLength(4);
    for (let i = 1; i < usages.length; i++) {
      expect(usages[i]?.cache_read_input_tokens).toBe(total(usages[i - 1] as AnthropicCacheUsage));
    }
  });

  it('bills the same 20-step run at under a quarter of its cost without breakpoints, cache writes at 1.25x the input price', async () => {
    const [without, withCache] = await runAnthropicBill();
    expect([without?.marked, without?.requests]).toEqual([0, 21]);
    expect([withCache?.marked, withCache?.requests]).toEqual([21, 21]);
    expect(without?.usage.cachedInputTokens).toBe(0);
    const usage = withCache?.usage as NonNullable<typeof withCache>['usage'];
    expect(usage.inputTokens).toBe(without?.usage.inputTokens);
    expect(usage.cachedInputTokens / usage.inputTokens).toBeGreaterThan(0.85);
    expect((usage.costUsd ?? 0) / (without?.usage.costUsd ?? 1)).toBeLessThan(0.25);
    // Each written token costs $0.75 per million more than plain input at claude-sonnet-4-5's prices.
    expect((usage.costUsd ?? 0) - (withCache?.writesAsInputUsd ?? 0)).toBeCloseTo(
      (usage.cacheWriteInputTokens * 0.75) / 1e6,
      12,
    );
    expect(usage.cacheWriteInputTokens).toBeGreaterThan(0);
  });
});
