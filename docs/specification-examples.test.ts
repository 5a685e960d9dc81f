/**
 * The code examples of the compaction specification, run as
 * written. Paid models are stood in for by mockModel: the 'openai' and 'ollama' prefixes
 * resolve to scripted models here, so 'openai/gpt-4o' and 'openai/gpt-4o-mini' answer
 * without a network. `declare const` inputs are given real values.
 */

import {
  type AgentEvent,
  type CompactionStrategy,
  compactMessages,
  createAgent,
  createCompactionHook,
  estimateTokens,
  HookRegistry,
  isPinned,
  type LLMProvider,
  type Message,
  pinMessage,
  registerModel,
  registerProvider,
  summarizeStrategy,
  ToolRegistry,
  twoPhaseStrategy,
} from '@lousho/build-ai-agent';
import { AgentExecutor } from '@lousho/build-ai-agent/executor';
import { type MockModel, mockModel } from '@lousho/build-ai-agent/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetModelRegistry } from '../src/models/registry.js';
import { readingTranscript } from '../src/test-support/transcripts.js';

/** A scripted agent model: reads `turns` big files, then answers. */
function readerModel(turns: number, modelId: string): MockModel {
  return mockModel(
    (_request, index) =>
      index < turns
        ? { toolCalls: [{ name: 'read_file', arguments: { path: `src/file${index}.ts` } }] }
        : 'Audit done.',
    { modelId },
  );
}

const readFile = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }: Record<string, unknown>) =>
    `// ${String(path)}\n${'const value = compute(input);\n'.repeat(400)}`,
};

const summarizers: MockModel[] = [];
const agents: MockModel[] = [];

beforeEach(() => {
  summarizers.length = 0;
  agents.length = 0;
  registerProvider('openai', (id) => {
    const model = id.endsWith('-mini')
      ? mockModel(() => 'Summary: the user asked for an audit; files were read.', { modelId: id })
      : readerModel(30, id);
    (id.endsWith('-mini') ? summarizers : agents).push(model);
    return model;
  });
  registerProvider('ollama', (id) => readerModel(12, id));
});

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
});

describe('specification examples: Compacting an agent', () => {
  it('creates agents with compaction: true and the object form, and streams the compaction events', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    registerModel({ id: 'gpt-4o', provider: 'openai', contextWindow: 32_000 }); // a small window, so the run compacts

    const simple = createAgent({ model: 'openai/gpt-4o', compaction: true });

    const agent = createAgent({
      model: 'openai/gpt-4o',
      tools: [readFile],
      compaction: {
        thresholdPercent: 0.8, // compact above 80% of the context window (default 0.9)
        protectedTokens: 20_000, // never change the newest 20K tokens (default 40_000)
        summarizer: 'openai/gpt-4o-mini', // prune, then summarize if still too big
      },
    });

    for await (const event of agent.stream('Audit the repository.')) {
      if (event.type === 'compaction.done') console.log(`${event.tokensBefore} -> ${event.tokensAfter} tokens`);
    }

    expect(simple.hooks.has('compaction')).toBe(true);
    const lines = log.mock.calls.map((c) => String(c[0]));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const [before, after] = line.split(' -> ').map((n) => Number.parseInt(n, 10));
      expect(after).toBeLessThan(before as number);
    }
    // No request the agent's model received was above 80% of its window.
    const calls = agents.at(-1)?.calls ?? [];
    expect(calls.length).toBe(31);
    for (const request of calls) expect(estimateTokens(request)).toBeLessThanOrEqual(0.8 * 32_000);
  });

  it('rejects summarizer together with strategy', () => {
    expect(() =>
      createAgent({
        model: 'openai/gpt-4o',
        compaction: { summarizer: 'openai/gpt-4o-mini', strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) },
      }),
    ).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});

describe('specification examples: Compacting a run', () => {
  it('runs the recommended two-phase hook and reports each compaction', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const provider: LLMProvider = readerModel(40, 'gpt-4o');
    registerModel({ id: 'gpt-4o', provider: 'openai', contextWindow: 96_000 });

    const agent = createAgent({
      provider,
      tools: [readFile],
      hooks: [
        createCompactionHook({
          strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }), // prune, then summarize if still too big
          thresholdPercent: 0.9, // compact above 90% of the context window (the default)
          protectedTokens: 40_000, // never change the newest 40K tokens (the default)
          onCompaction: ({ tokensBefore, tokensAfter, prunedToolCallIds, summary, error }) => {
            console.log(
              `compacted ${tokensBefore} -> ${tokensAfter} tokens (${prunedToolCallIds.length} results pruned)`,
            );
            if (summary) console.log('summary:', summary);
            if (error) console.warn('summarizer failed, kept the pruned conversation:', error.message);
          },
        }),
      ],
    });

    const result = await agent.send('Audit the repository.');
    expect(result.text).toBe('Audit done.');
    expect(log.mock.calls.some((c) => String(c[0]).startsWith('compacted '))).toBe(true);
    expect(warn).toHaveBeenCalledTimes(0);
  });
});

describe('specification examples: Local and unknown models', () => {
  it('sets the window on the agent or once in the registry', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    // Either on the agent...
    const agent = createAgent({
      model: 'ollama/qwen3:8b',
      tools: [readFile],
      compaction: { contextWindow: 8_192, reserveOutputTokens: 1_024 },
    });

    // ...or once for every feature that reads the window (compaction, tool search).
    registerModel({ id: 'qwen3:8b', provider: 'ollama', contextWindow: 8_192 });

    const events: AgentEvent[] = [];
    await agent.send('Audit the repository.', { onEvent: (e) => events.push(e) });
    const start = events.find((e) => e.type === 'compaction.start');
    expect(start).toMatchObject({ contextWindow: 8_192, thresholdTokens: 8_192 - 1_024 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns once, naming the model, when the window is unknown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const agent = createAgent({ model: 'ollama/qwen3:8b', tools: [readFile], compaction: true });
    await agent.send('Audit the repository.');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('"qwen3:8b"');
  });
});

describe('specification examples: Advanced: the executor API', () => {
  it('registers the hook in a HookRegistry and executes', async () => {
    const agent = { instructions: 'You audit repositories.' };
    const input = 'Audit the repository.';
    const provider = readerModel(5, 'gpt-4o');
    const toolRegistry = new ToolRegistry([readFile]);

    const hooks = new HookRegistry();
    hooks.register(
      createCompactionHook({
        strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }),
        thresholdPercent: 0.9,
        protectedTokens: 40_000,
      }),
    );

    const result = await AgentExecutor.execute({ agent, input, provider, toolRegistry, hooks });
    expect(result.text).toBe('Audit done.');
    expect(result.messages[0]).toEqual({ role: 'system', content: 'You audit repositories.' });
    expect(result.steps).toBe(6);
  });
});

describe('specification examples: Pinning messages', () => {
  it('pins the goal', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const messages: Message[] = [
      { role: 'system', content: 'You are a research assistant.' },
      pinMessage({ role: 'user', content: 'Goal: compare the three vendors on price and support.' }),
    ];
    console.log(isPinned(messages[1] as Message)); // true
    expect(log).toHaveBeenCalledWith(true);
  });
});

describe('specification examples: Compacting by hand', () => {
  it('prunes a stored transcript, then summarizes it', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const history: Message[] = readingTranscript(12, 6_000);

    const { messages, tokensBefore, tokensAfter, prunedToolCallIds } = await compactMessages(history, {
      protectedTokens: 8_000,
      model: 'gpt-4o-mini', // for the context-window lookup and the token estimator
    });
    console.log(`${tokensBefore} -> ${tokensAfter} tokens, pruned ${prunedToolCallIds.length} results`);

    const summarized = await compactMessages(history, {
      protectedTokens: 8_000,
      strategy: summarizeStrategy({ model: 'openai/gpt-4o-mini' }),
    });
    console.log(summarized.summary ?? summarized.error?.message);

    expect(prunedToolCallIds.length).toBeGreaterThan(0);
    expect(tokensAfter).toBeLessThan(tokensBefore);
    expect(messages).toHaveLength(history.length);
    expect(summarized.summary).toBe('Summary: the user asked for an audit; files were read.');
    expect(log).toHaveBeenCalledTimes(2);
  });
});

describe('specification examples: Compacting a session', () => {
  it('compacts a session by hand, reports it with trigger manual, and clears it', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});

    const agent = createAgent({ provider: mockModel(['ok']) });
    const session = agent.session({ compaction: { strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) } });
    session.on((event) => {
      if (event.type === 'compaction.done') console.log(event.trigger, event.tokensBefore, '->', event.tokensAfter);
    });
    await session.send('hello');
    const { tokensBefore, tokensAfter } = await session.compact({ protectedTokens: 2_000 });
    console.log(`${tokensBefore} -> ${tokensAfter} tokens`);
    await session.clear();
    console.log(session.messages.length); // 0

    expect(log.mock.calls[0]?.[0]).toBe('manual');
    expect(log.mock.calls[1]?.[0]).toBe(`${tokensBefore} -> ${tokensAfter} tokens`);
    expect(log).toHaveBeenLastCalledWith(0);
  });
});

describe('specification examples: Writing a strategy', () => {
  it('runs a custom keep-recent strategy through the hook', async () => {
    // Keep the system prompt, pinned messages and the last 20 messages.
    const keepRecent: CompactionStrategy = {
      name: 'keep-recent',
      compact({ messages, estimateTokens }) {
        const tokensBefore = estimateTokens(messages);
        if (messages.length <= 22) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds: [] };
        // A real strategy must not split a tool call from its result.
        const older = messages.slice(0, -20).filter((m) => m.role === 'system' || isPinned(m));
        const kept = [...older, ...messages.slice(-20)];
        return { messages: kept, tokensBefore, tokensAfter: estimateTokens(kept), prunedToolCallIds: [] };
      },
    };

    const hook = createCompactionHook({ strategy: keepRecent });

    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: readerModel(30, 'gpt-4o'),
      instructions: 'You audit repositories.',
      tools: [readFile],
      hooks: [hook],
    });
    registerModel({ id: 'gpt-4o', provider: 'openai', contextWindow: 16_000 });
    const result = await agent.send('Audit the repository.', { onEvent: (e) => events.push(e) });
    const done = events.filter((e) => e.type === 'compaction.done');
    expect(done.length).toBeGreaterThan(0);
    // Above the threshold the custom strategy runs; a request over the window is the overflow recovery's, announced as such.
    const above = done.filter((e) => e.type === 'compaction.done' && e.trigger === undefined);
    expect(above.length).toBeGreaterThan(0);
    expect(above.every((e) => e.type === 'compaction.done' && e.strategy === 'keep-recent')).toBe(true);
    const overflow = done.filter((e) => e.type === 'compaction.done' && e.trigger === 'overflow');
    expect(overflow.every((e) => e.type === 'compaction.done' && e.strategy === 'overflow-recovery')).toBe(true);
    // The slice keeps whole turns here (an even tail after the user message), so it applies.
    expect(done.some((e) => e.type === 'compaction.done' && e.unchanged !== true && e.error === undefined)).toBe(true);
    expect(result.messages[0]).toEqual({ role: 'system', content: 'You audit repositories.' });
  });
});
