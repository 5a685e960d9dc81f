import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { Message } from '../messages/types.js';
import { rejection, thrown } from '../test-support/errors.js';
import { mockModel } from '../testing/mock-model.js';
import { type AgentDefinition, AgentExecutor } from './agent-executor.js';
import { HookRegistry } from './hook-registry.js';
import { partialResult } from './result.js';
import { tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

const lookup = tool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a thing`,
});

const definition: AgentDefinition = { name: 'lexicographer', instructions: 'Define words.' };

describe('AgentExecutor.execute()', () => {
  it('runs an agent definition object with a provider, a tool registry and hooks', async () => {
    const model = mockModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'cat' } }] }, 'A cat.']);
    const pre = vi.fn();
    const hooks = new HookRegistry([{ name: 'counter', preGenerate: pre }]);
    const result = await AgentExecutor.execute({
      agent: definition,
      input: 'What is a cat?',
      provider: model,
      toolRegistry: new ToolRegistry([lookup]),
      hooks,
    });
    expect(result.text).toBe('A cat.');
    expect(result.steps).toBe(2);
    expect(result.messages).toEqual([
      { role: 'system', content: 'Define words.' },
      { role: 'user', content: 'What is a cat?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'cat' } }] },
      { role: 'tool', toolCallId: 'l1', toolName: 'lookup', content: 'cat: a thing' },
      { role: 'assistant', content: 'A cat.' },
    ]);
    expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual(['lookup']);
    expect(pre).toHaveBeenCalledTimes(2);
  });

  it('runs with only agent, input and provider', async () => {
    const model = mockModel(['hello']);
    const result = await AgentExecutor.execute({ agent: {}, input: 'hi', provider: model });
    expect(result.text).toBe('hello');
    expect(result.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
  });

  it('runs an Agent from createAgent with its own tools and hooks', async () => {
    const order: string[] = [];
    const agent = createAgent({
      provider: mockModel([]),
      instructions: 'Define words.',
      tools: [lookup],
      hooks: [{ name: 'h', preGenerate: () => void order.push('h') }],
    });
    const other = mockModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'dog' } }] }, 'A dog.']);
    const result = await AgentExecutor.execute({
      agent,
      input: 'dog?',
      provider: other,
      toolRegistry: agent.tools,
      hooks: agent.hooks,
    });
    expect(result.text).toBe('A dog.');
    expect(other.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'Define words.' });
    expect(result.messages[3]).toMatchObject({ role: 'tool', content: 'dog: a thing' });
    expect(order).toEqual(['h', 'h']);
  });

  it("applies the agent's limits", async () => {
    const model = mockModel((_r, i) => ({ toolCalls: [{ id: `c${i}`, name: 'lookup', arguments: { word: 'x' } }] }));
    const error = await rejection(
      AgentExecutor.execute({
        agent: { limits: { maxSteps: 2 } },
        input: 'loop',
        provider: model,
        toolRegistry: new ToolRegistry([lookup]),
      }),
    );
    expect(error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
    expect(error.details).toMatchObject({ limit: 'maxSteps' });
    expect(partialResult(error)?.steps).toBe(2);
  });

  it('rejects bad limits of an agent definition with LOUSHO_CONFIG_INVALID', async () => {
    const model = mockModel(['x']);
    const error = await rejection(
      AgentExecutor.execute({ agent: { limits: { maxTokens: 0 } }, input: 'hi', provider: model }),
    );
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('limits.maxTokens');
    expect(model.calls).toHaveLength(0);
  });

  it('rejects a missing or non-provider provider with LOUSHO_CONFIG_INVALID', async () => {
    const error = await rejection(
      AgentExecutor.execute({ agent: {}, input: 'hi', provider: 'openai/gpt-4o' as unknown as LLMProvider }),
    );
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain('provider');
  });

  it('sends events to every listener of an onEvent array, and lets hooks emit', async () => {
    const a: string[] = [];
    const b: string[] = [];
    let hadEmit = false;
    await AgentExecutor.execute({
      agent: {},
      input: 'hi',
      provider: mockModel(['ok']),
      hooks: new HookRegistry([
        {
          name: 'x',
          preGenerate: (ctx) => {
            hadEmit = ctx.emit !== undefined;
          },
        },
      ]),
      onEvent: [(e) => a.push(e.type), (e) => b.push(e.type)],
    });
    expect(a).toEqual(['run.start', 'step.start', 'text.delta', 'step.done', 'run.done']);
    expect(b).toEqual(a);
    expect(hadEmit).toBe(true);
  });

  it('gives hooks no emit when execute() has no listener', async () => {
    let hadEmit: boolean | undefined;
    await AgentExecutor.execute({
      agent: {},
      input: 'hi',
      provider: mockModel(['ok']),
      hooks: new HookRegistry([
        {
          name: 'x',
          preGenerate: (ctx) => {
            hadEmit = ctx.emit !== undefined;
          },
        },
      ]),
    });
    expect(hadEmit).toBe(false);
  });

  it('counts a model call a hook records in usage and the token budgets, but not in steps or maxSteps', async () => {
    const summarizer: AgentHook = {
      name: 'summarizer',
      preGenerate: ({ run }) =>
        run.recordModelCall({
          provider: 'mock',
          model: 'gpt-4o-mini',
          purpose: 'compaction',
          usage: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: undefined },
        }),
    };
    const result = await AgentExecutor.execute({
      agent: {},
      input: 'hi',
      provider: mockModel([{ text: 'ok', usage: { inputTokens: 10, outputTokens: 1 } }]),
      hooks: new HookRegistry([summarizer]),
    });
    expect(result.steps).toBe(1);
    expect(result.usage.modelCalls.map((c) => [c.purpose, c.model, c.step])).toEqual([
      ['compaction', 'gpt-4o-mini', 1],
      ['generate', 'mock-model', 1],
    ]);
    expect(result.usage.totalTokens).toBe(1111);
    expect(result.usage.byModel['gpt-4o-mini']?.costUsd).toBeGreaterThan(0);

    const limited = mockModel((_r, i) => ({ toolCalls: [{ id: `c${i}`, name: 'lookup', arguments: { word: 'x' } }] }));
    const error = await rejection(
      AgentExecutor.execute({
        agent: { limits: { maxSteps: 3 } },
        input: 'hi',
        provider: limited,
        toolRegistry: new ToolRegistry([lookup]),
        hooks: new HookRegistry([summarizer]),
      }),
    );
    // maxSteps counts the agent's own steps, as result.steps does: three model replies, not the hook's calls.
    expect(error.details).toMatchObject({ limit: 'maxSteps', value: 3, max: 3 });
    expect(limited.calls).toHaveLength(3);
    expect(partialResult(error)?.steps).toBe(3);
    expect(partialResult(error)?.usage.modelCalls.filter((c) => c.purpose === 'compaction')).toHaveLength(3);
  });
});

describe('AgentExecutor.stream()', () => {
  it('streams the events of an agent definition and resolves .result to run.done’s result', async () => {
    const model = mockModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'owl' } }] }, 'An owl.']);
    const stream = AgentExecutor.stream({
      agent: definition,
      input: 'owl?',
      provider: model,
      toolRegistry: new ToolRegistry([lookup]),
    });
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'run.start',
      'step.start',
      'step.done',
      'tool.start',
      'tool.done',
      'step.start',
      'text.delta',
      'text.delta',
      'step.done',
      'run.done',
    ]);
    const done = events.at(-1);
    if (done?.type !== 'run.done') throw new Error('no run.done');
    expect(await stream.result).toBe(done.result);
    expect(done.result.text).toBe('An owl.');
  });

  it('streams an Agent from createAgent', async () => {
    const agent = createAgent({ provider: mockModel([]), instructions: 'Be brief.', tools: [lookup] });
    const model = mockModel(['Brief.']);
    const stream = AgentExecutor.stream({ agent, input: 'hi', provider: model, toolRegistry: agent.tools });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['run.start', 'step.start', 'text.delta', 'step.done', 'run.done']);
    expect((await stream.result).messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('does not start the run until it is iterated or its result is read', async () => {
    const model = mockModel(['ok']);
    const stream = AgentExecutor.stream({ agent: {}, input: 'hi', provider: model });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(model.calls).toHaveLength(0);
    await stream.result;
    expect(model.calls).toHaveLength(1);
  });

  it('yields run.error and then throws the LoushoError of a failing run', async () => {
    const stream = AgentExecutor.stream({
      agent: {},
      input: 'hi',
      provider: mockModel([]),
      hooks: new HookRegistry([
        {
          name: 'explodes',
          preGenerate: () => {
            throw new Error('kaboom');
          },
        },
      ]),
    });
    const events: AgentEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of stream) events.push(event);
      })(),
    );
    expect(error.code).toBe('LOUSHO_HOOK_FAILED');
    expect(events.map((e) => e.type)).toEqual(['run.start', 'step.start', 'run.error']);
    expect(events[2]).toMatchObject({
      error: { code: 'LOUSHO_HOOK_FAILED', message: expect.stringContaining('kaboom') },
    });
    expect(await rejection(stream.result)).toBe(error);
  });
});

describe('HookRegistry', () => {
  it('keeps hooks in registration order and finds them by name', () => {
    const registry = new HookRegistry([{ name: 'a', preGenerate: () => {} }]);
    expect(registry.register({ name: 'b', postGenerate: () => {} })).toBe(registry);
    expect(registry.list().map((h) => h.name)).toEqual(['a', 'b']);
    expect(registry.has('b')).toBe(true);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.list().map((h) => h.name)).toEqual(['b']);
  });

  it('rejects a duplicate name with LOUSHO_CONFIG_INVALID', () => {
    const registry = new HookRegistry([{ name: 'compaction', preGenerate: () => {} }]);
    const error = thrown(() => registry.register({ name: 'compaction', preGenerate: () => {} }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain("'compaction' is already registered");
    expect(registry.list()).toHaveLength(1);
  });

  it.each([
    ['null', null],
    ['a string', 'compaction'],
    ['no name', { preGenerate: () => {} }],
    ['an empty name', { name: '' }],
    ['a preGenerate that is not a function', { name: 'x', preGenerate: 'run me' }],
    ['a postGenerate that is not a function', { name: 'x', postGenerate: 42 }],
  ])('rejects a hook with %s with LOUSHO_CONFIG_INVALID', (_label, hook) => {
    const error = thrown(() => new HookRegistry().register(hook as unknown as AgentHook));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message.length).toBeGreaterThan(20);
  });
});

describe('the requests a run sends', () => {
  it('leaves in mockModel.calls the messages each request had when it was sent', async () => {
    // model.calls is how tests see "what each request contained". Each entry should keep
    // the transcript as it was at that call, not the run's live array as it is at the end.
    const model = mockModel([{ toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'x' } }] }, 'done']);
    await AgentExecutor.execute({
      agent: {},
      input: 'hi',
      provider: model,
      toolRegistry: new ToolRegistry([lookup]),
    });
    const firstRequest: Message[] = model.calls[0]?.messages ?? [];
    expect(firstRequest).toEqual([{ role: 'user', content: 'hi' }]);
    expect(model.calls[1]?.messages).toHaveLength(3);
  });
});
