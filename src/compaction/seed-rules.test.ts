/**
 * The compaction hook's defaults, rule by rule, as the compaction guide states them; each
 * test is one rule. The opt-in layers are tested on their own (layers.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { Tool } from '../executor/tool.js';
import { pinMessage } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { prose } from '../test-support/text.js';
import { proseReadTool } from '../test-support/transcripts.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { type CompactionInfo, createCompactionHook } from './compaction-hook.js';
import { isPrunedMarker } from './marker.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import type { CompactionStrategy } from './types.js';

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const readTool = proseReadTool;

/** A model that reads `n` files, one per step, then answers. */
function reader(n: number, sizes: number[] = []) {
  return mockModel((request, index) => {
    sizes.push(estimateTokens(request));
    if (index >= n) return 'done';
    return { toolCalls: [{ id: `r${index}`, name: 'read', arguments: { path: `src/f${index}.ts` } }] } as MockReply;
  });
}

const types = (events: AgentEvent[]) => events.map((e) => e.type).filter((t) => t.startsWith('compaction.'));

describe('the compaction hook by default', () => {
  it('leaves the run alone when the strategy returns its input: one quiet unchanged pair, no onCompaction, nothing pruned', async () => {
    let calls = 0;
    const noop: CompactionStrategy = {
      name: 'noop',
      compact({ messages, estimateTokens: size }) {
        calls++;
        const tokens = size(messages);
        return { messages, tokensBefore: tokens, tokensAfter: tokens, prunedToolCallIds: [] };
      },
    };
    const infos: CompactionInfo[] = [];
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: reader(10),
      tools: [readTool(8_000)],
      hooks: [
        createCompactionHook({
          strategy: noop,
          contextWindow: 32_000,
          thresholdPercent: 0.25,
          onCompaction: (i) => infos.push(i),
        }),
      ],
      onEvent: (e) => events.push(e),
    });
    const result = await agent.send('Read the files.');
    expect(calls).toBeGreaterThan(2); // over the threshold at several steps, and the strategy ran each time
    expect(infos).toEqual([]);
    expect(types(events)).toEqual(['compaction.start', 'compaction.done']);
    const done = events.find((e) => e.type === 'compaction.done');
    expect(done).toMatchObject({ strategy: 'noop', unchanged: true, prunedToolCallIds: [] });
    expect(done).not.toHaveProperty('appliedStrategy');
    expect(result.messages.filter((m) => m.role === 'tool').some((m) => isPrunedMarker(String(m.content)))).toBe(false);
  });

  it('never changes a system, user or assistant message with compaction: true: a 12-turn session on an 8K window keeps all 12 user messages', async () => {
    const sizes: number[] = [];
    let turn = 0;
    const model = mockModel((request) => {
      sizes.push(estimateTokens(request));
      const last = request.messages.at(-1) as Message;
      if (last.role === 'user')
        return { toolCalls: [{ id: `t${turn}`, name: 'read', arguments: { path: `f${turn++}` } }] };
      return `Read f${turn - 1}.`;
    });
    const agent = createAgent({ provider: model, tools: [readTool(20_000)], compaction: { contextWindow: 8_192 } });
    const session = agent.session();
    const said: Message[] = [];
    for (let i = 0; i < 12; i++) {
      const result = await session.send(`Question ${i}: what is in the next file?`);
      said.push(...result.messages.filter((m) => m.role !== 'tool'));
    }
    const kept = session.messages;
    expect(kept.filter((m) => m.role === 'user')).toHaveLength(12);
    // Every system, user and assistant message is still there, unchanged, in order.
    const nonTool = kept.filter((m) => m.role !== 'tool');
    for (const m of nonTool) expect(said).toContainEqual(m);
    expect(kept.some((m) => m.role === 'tool' && isPrunedMarker(String(m.content)))).toBe(true);
  });

  it('runs the strategy above the threshold and applies a result that shrinks the request, however little', async () => {
    const infos: CompactionInfo[] = [];
    // Frees one tool result's worth of characters and no more: far under a tenth of the threshold.
    const small: CompactionStrategy = {
      name: 'trim-one',
      compact({ messages, estimateTokens: size }) {
        const at = messages.findIndex((m) => m.role === 'tool' && String(m.content).length > 20);
        const tokensBefore = size(messages);
        if (at < 0) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds: [] };
        const next = messages.slice();
        const m = next[at] as Extract<Message, { role: 'tool' }>;
        next[at] = { ...m, content: String(m.content).slice(0, -12) };
        return { messages: next, tokensBefore, tokensAfter: size(next), prunedToolCallIds: [] };
      },
    };
    const agent = createAgent({
      provider: reader(10),
      tools: [readTool(8_000)],
      hooks: [
        createCompactionHook({
          strategy: small,
          contextWindow: 32_000,
          thresholdPercent: 0.25,
          onCompaction: (i) => infos.push(i),
        }),
      ],
    });
    await agent.send('Read the files.');
    expect(infos.length).toBeGreaterThan(0);
    for (const info of infos) {
      expect(info.strategy).toBe('trim-one');
      expect(info.tokensAfter).toBeLessThan(info.tokensBefore);
      expect(info.tokensBefore - info.tokensAfter).toBeLessThan(0.1 * info.thresholdTokens);
    }
  });

  it('protects a value you set below the threshold as it is, without a warning, and caps one at or above it once, saying so', async () => {
    const run = async (protectedTokens: number) => {
      warn.mockClear();
      const infos: CompactionInfo[] = [];
      const agent = createAgent({
        provider: reader(8),
        tools: [readTool(16_000)],
        compaction: {
          contextWindow: 64_000,
          thresholdPercent: 0.5,
          protectedTokens,
          onCompaction: (i) => infos.push(i),
        },
      });
      const result = await agent.send('Read the files.');
      return { infos, result, warnings: warn.mock.calls.map((c) => String(c[0])) };
    };
    // 20,000 of a 32,000 threshold: above half of it, below it; used as set.
    const set = await run(20_000);
    expect(set.warnings.filter((w) => w.includes('protectedTokens'))).toEqual([]);
    const tail = set.result.messages.slice(-4);
    expect(tail.filter((m) => m.role === 'tool').every((m) => !isPrunedMarker(String(m.content)))).toBe(true);
    const capped = await run(40_000);
    const words = capped.warnings.filter((w) => w.includes('protectedTokens'));
    expect(words).toHaveLength(1);
    expect(words[0]).toMatch(/protectedTokens \(40000\) is at or above the threshold \(32000 tokens\).*using 16000/);
  });

  it('after a rejected summary only prunes until the transcript has twice as many messages as at the rejection', async () => {
    // The first summary is accepted and removes most messages; the second is rejected. The
    // pause counts the transcript's length, not every message the run ever added.
    const calls: number[] = [];
    const summarizing: CompactionStrategy = {
      name: 'summary-then-bad',
      compact({ messages, estimateTokens: size }) {
        calls.push(messages.length);
        const tokensBefore = size(messages);
        const summary = { role: 'user' as const, content: '[Conversation summary]\nRead some files.' };
        const next =
          calls.length === 1 ? [messages[0] as Message, summary, ...messages.slice(-2)] : [...messages, summary];
        return {
          messages: next,
          tokensBefore,
          tokensAfter: size(next),
          prunedToolCallIds: [],
          summary: 'Read some files.',
        };
      },
      fallback: pruneToolResultsStrategy(),
    };
    const seen: { length: number; tokens: number }[] = [];
    const agent = createAgent({
      provider: reader(40),
      tools: [readTool(6_000)],
      hooks: [
        {
          name: 'sizes',
          preGenerate: ({ request, run }) =>
            void seen.push({ length: request.messages.length, tokens: run.budget.measure(request) }),
        },
        createCompactionHook({ strategy: summarizing, contextWindow: 16_000, protectedTokens: 1_000 }),
      ],
      limits: { maxSteps: 50 },
    });
    await agent.send('Read the files.');
    expect(calls.length).toBeGreaterThanOrEqual(3);
    const rejectedAt = calls[1] as number;
    // The strategy runs again at the first step over the threshold whose transcript has twice as many messages.
    const after = seen.slice(seen.findIndex((s) => s.length === rejectedAt) + 1);
    const resumeAt = after.find((s) => s.length >= 2 * rejectedAt && s.tokens > 14_400)?.length;
    expect(resumeAt).toBeDefined();
    expect(calls[2]).toBe(resumeAt);
  });

  it('leaves a result already pruned with the older marker form alone', async () => {
    const older = '[pruned: search result, 18234 chars]';
    const model = mockModel([
      { toolCalls: [{ id: 'a', name: 'read', arguments: { path: 'a' } }] },
      { toolCalls: [{ id: 'b', name: 'read', arguments: { path: 'b' } }] },
      'done',
    ]);
    const history: Message[] = [
      { role: 'user', content: 'Go on reading.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'old', name: 'search', arguments: { query: 'deploy' } }] },
      { role: 'tool', toolCallId: 'old', content: older },
    ];
    const agent = createAgent({
      provider: model,
      tools: [readTool(20_000)],
      compaction: { contextWindow: 8_000, protectedTokens: 100 },
    });
    const result = await agent.send(history);
    expect(result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'old')?.content).toBe(older);
    expect(
      result.messages.some((m) => m.role === 'tool' && m.toolCallId === 'a' && isPrunedMarker(String(m.content))),
    ).toBe(true);
  });

  it('reports compaction.done before the run ends when the run is aborted during a compaction', async () => {
    const controller = new AbortController();
    const slow: CompactionStrategy = {
      name: 'slow',
      compact: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          controller.abort();
        }),
    };
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: reader(6),
      tools: [readTool(8_000)],
      hooks: [createCompactionHook({ strategy: slow, contextWindow: 64_000, thresholdPercent: 0.1 })],
      onEvent: (e) => events.push(e),
    });
    await expect(agent.send('Read.', { abortSignal: controller.signal })).rejects.toMatchObject({
      code: 'LOUSHO_ABORTED',
    });
    const order = events.map((e) => e.type);
    const done = order.indexOf('compaction.done');
    expect(done).toBeGreaterThanOrEqual(0);
    expect(events[done]).toMatchObject({ error: { message: expect.stringMatching(/aborted/) } });
    expect(done).toBeLessThan(order.indexOf('run.error'));
  });

  it('never cuts a pinned result, even when the newest turn does not fit the window', async () => {
    const big = prose(5, 60_000);
    const pinned: Tool<never, unknown> = {
      name: 'spec',
      description: 'The spec.',
      parameters: { type: 'object', properties: {} },
      execute: () => big,
    };
    const model = mockModel([{ toolCalls: [{ id: 's', name: 'spec', arguments: {} }] }, 'done']);
    const agent = createAgent({
      provider: model,
      tools: [pinned],
      compaction: { contextWindow: 8_000 },
      hooks: [
        {
          name: 'pin-spec',
          preGenerate: ({ request }) => {
            request.messages.forEach((m, i) => {
              if (m.role === 'tool' && m.toolCallId === 's') request.messages[i] = pinMessage(m);
            });
          },
        },
      ],
    });
    const error = await agent.send('Read the spec.').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LOUSHO_CONTEXT_OVERFLOW' });
  });
});

describe('the overflow recovery', () => {
  const longRun = (overflowRecovery: boolean | undefined, infos: CompactionInfo[], events: AgentEvent[]) =>
    createAgent({
      provider: reader(400),
      tools: [readTool(4_000)],
      compaction: {
        contextWindow: 16_000,
        onCompaction: (i) => infos.push(i),
        ...(overflowRecovery === undefined ? {} : { overflowRecovery }),
      },
      limits: { maxSteps: 450 },
      onEvent: (e) => events.push(e),
    });

  it('runs only for a request that does not fit, announced as itself in the events and in onCompaction', async () => {
    const infos: CompactionInfo[] = [];
    const events: AgentEvent[] = [];
    const agent = longRun(undefined, infos, events);
    await agent.send('Read the files.');
    const overflow = events.filter((e) => e.type === 'compaction.done' && e.trigger === 'overflow');
    expect(overflow.length).toBeGreaterThan(0);
    expect(overflow.every((e) => e.type === 'compaction.done' && e.strategy === 'overflow-recovery')).toBe(true);
    expect(infos.filter((i) => i.strategy === 'overflow-recovery')).toHaveLength(overflow.length);
    // Every one started from a request over the window, never from one that fitted.
    for (const e of overflow) if (e.type === 'compaction.done') expect(e.tokensBefore).toBeGreaterThan(16_000 - 1);
  });

  it('with overflowRecovery: false refuses such a request with LOUSHO_CONTEXT_OVERFLOW instead', async () => {
    const infos: CompactionInfo[] = [];
    const events: AgentEvent[] = [];
    const agent = longRun(false, infos, events);
    await expect(agent.send('Read the files.')).rejects.toMatchObject({ code: 'LOUSHO_CONTEXT_OVERFLOW' });
    expect(events.some((e) => e.type === 'compaction.done' && e.trigger === 'overflow')).toBe(false);
  });
});
