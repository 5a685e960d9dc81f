import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentHook, PostGenerateContext, PreGenerateContext } from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { partialResult } from '../executor/result.js';
import { type Tool, tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { findPairingProblem } from '../messages/validate.js';
import { getModelInfo } from '../models/registry.js';
import { rejection, thrown } from '../test-support/errors.js';
import { within } from '../test-support/provider-setup.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { createAgent } from './create-agent.js';

// ---------------------------------------------------------------- helpers

/** Rejects when `promise` has not settled after `ms`: turns a hang into a failure. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** What one request contained when it was sent (request.messages is the live transcript). */
interface Seen {
  messages: Message[];
  tools: string[];
  request: ModelRequest;
}

/** A mockModel script that records a copy of each request before answering. */
function recording(answer: (request: ModelRequest, index: number) => string | MockReply) {
  const seen: Seen[] = [];
  const step = (request: ModelRequest, index: number) => {
    seen.push({ messages: [...request.messages], tools: (request.tools ?? []).map((t) => t.name), request });
    return answer(request, index);
  };
  return { seen, step };
}

const toolResults = (messages: readonly Message[]): ToolMessage[] =>
  messages.filter((m): m is ToolMessage => m.role === 'tool');

const weather = tool({
  name: 'get_weather',
  description: 'Get the weather forecast for a city',
  parameters: z.object({ city: z.string(), days: z.number().int().min(1) }),
  execute: async ({ city, days }) => `${city}: sunny for ${days} day(s)`,
});

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: (args) => ({ sum: Number(args.a) + Number(args.b) }),
});

afterEach(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------- send()

describe('agent.send()', () => {
  it('resolves to { text, messages, usage, steps, finishReason }', async () => {
    const model = mockModel(['Hello there.']);
    const agent = createAgent({ provider: model });
    const result = await agent.send('hi');
    expect(result.text).toBe('Hello there.');
    expect(result.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Hello there.' },
    ]);
    expect(result.steps).toBe(1);
    expect(result.finishReason).toBe('stop');
    expect(typeof result.runId).toBe('string');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    model.assertAllUsed();
  });

  it('accepts the provider as model too', async () => {
    const agent = createAgent({ model: mockModel(['ok']) });
    expect((await agent.send('hi')).text).toBe('ok');
  });

  it('reports the finish reason of the last reply', async () => {
    const agent = createAgent({ provider: mockModel([{ text: 'withheld', finishReason: 'content-filter' }]) });
    expect((await agent.send('hi')).finishReason).toBe('content-filter');
  });

  it('counts steps as the model calls of the run and the text as the last assistant text', async () => {
    const model = mockModel([{ text: 'Let me add.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, '3']);
    const result = await createAgent({ provider: model, tools: [add] }).send('1+2?');
    expect(result.steps).toBe(2);
    expect(result.text).toBe('3');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('prices usage from the model registry when the model is known (gpt-4o)', async () => {
    const model = mockModel(
      [
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }], usage: { inputTokens: 1000, outputTokens: 200 } },
        { text: '2', usage: { inputTokens: 1500, outputTokens: 100 } },
      ],
      { modelId: 'gpt-4o', provider: 'openai' },
    );
    const { usage } = await createAgent({ provider: model, tools: [add] }).send('1+1?');
    const info = getModelInfo('gpt-4o');
    const inPrice = info?.inputPricePerMillion ?? Number.NaN;
    const outPrice = info?.outputPricePerMillion ?? Number.NaN;
    const expected = (2500 * inPrice + 300 * outPrice) / 1e6;
    expect(usage.inputTokens).toBe(2500);
    expect(usage.outputTokens).toBe(300);
    expect(usage.totalTokens).toBe(2800);
    expect(usage.costUsd).toBeCloseTo(expected, 12);
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(usage.byModel['gpt-4o']).toEqual({
      calls: 2,
      inputTokens: 2500,
      outputTokens: 300,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      reasoningTokens: 0,
      costUsd: expect.closeTo(expected, 12),
    });
    expect(usage.modelCalls).toHaveLength(2);
    expect(usage.modelCalls.map((c) => [c.purpose, c.step, c.model, c.provider])).toEqual([
      ['generate', 1, 'gpt-4o', 'openai'],
      ['generate', 2, 'gpt-4o', 'openai'],
    ]);
    expect(usage.modelCalls[0]?.costUsd).toBeCloseTo((1000 * inPrice + 200 * outPrice) / 1e6, 12);
  });

  it('leaves costUsd undefined when the model has no known price (mock-model)', async () => {
    const { usage } = await createAgent({ provider: mockModel(['ok']) }).send('hi');
    expect(usage.costUsd).toBeUndefined();
    expect(usage.byModel['mock-model']).toMatchObject({ calls: 1, costUsd: undefined });
    expect(usage.modelCalls).toEqual([expect.objectContaining({ purpose: 'generate', costUsd: undefined })]);
  });

  it('sends the instructions as the system message', async () => {
    const model = mockModel(['ok']);
    const result = await createAgent({ provider: model, instructions: 'You are terse.' }).send('hi');
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(result.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(result.messages[1]).toEqual({ role: 'user', content: 'hi' });
  });

  it('takes a message as input', async () => {
    const model = mockModel(['ok']);
    const input: Message = { role: 'user', content: [{ type: 'text', text: 'from parts' }] };
    const result = await createAgent({ provider: model, instructions: 'sys' }).send(input);
    expect(result.messages.slice(0, 2)).toEqual([{ role: 'system', content: 'sys' }, input]);
  });

  it('continues a transcript given as input, after the instructions, without changing the caller array', async () => {
    const { seen, step } = recording(() => 'It was 4.');
    const transcript: Message[] = [
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'What did you say?' },
    ];
    const copy = structuredClone(transcript);
    const result = await createAgent({ provider: mockModel(step), instructions: 'sys' }).send(transcript);
    expect(seen[0]?.messages).toEqual([{ role: 'system', content: 'sys' }, ...copy]);
    expect(result.messages).toHaveLength(5);
    expect(transcript).toEqual(copy);
  });

  it('rejects a malformed input message with LOUSHO_MESSAGE_INVALID', async () => {
    const agent = createAgent({ provider: mockModel(['ok']) });
    const error = await rejection(agent.send({ role: 'robot', content: 'x' } as unknown as Message));
    expect(error.code).toBe('LOUSHO_MESSAGE_INVALID');
  });

  it('sends outputSchema, maxOutputTokens and temperature with every request', async () => {
    const model = mockModel(['{"a":1}']);
    const outputSchema = { type: 'object', properties: { a: { type: 'number' } } };
    await createAgent({ provider: model, outputSchema, maxOutputTokens: 50, temperature: 0.2 }).send('hi');
    expect(model.calls[0]).toMatchObject({ outputSchema, maxOutputTokens: 50, temperature: 0.2, model: 'mock-model' });
  });

  it('wraps a model failure as a LoushoError with the partial result', async () => {
    const agent = createAgent({ provider: mockModel([new Error('overloaded')]) });
    const error = await rejection(agent.send('hi'));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.message).toContain('overloaded');
    expect(partialResult(error)?.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

// ---------------------------------------------------------------- stream()

describe('agent.stream()', () => {
  it('yields typed events in order and ends with run.done carrying the result', async () => {
    const model = mockModel([
      { text: 'Let me check.', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris', days: 2 } }] },
      'It is sunny.',
    ]);
    const stream = createAgent({ provider: model, tools: [weather] }).stream('Weather in Paris?');
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'run.start',
      'step.start',
      'text.delta',
      'text.delta',
      'text.delta',
      'step.done',
      'tool.start',
      'tool.done',
      'step.start',
      'text.delta',
      'text.delta',
      'text.delta',
      'step.done',
      'run.done',
    ]);
    const runIdOf = (e: AgentEvent | undefined) => (e !== undefined && 'runId' in e ? e.runId : undefined);
    const runId = runIdOf(events[0]);
    expect(events.every((e) => runIdOf(e) === runId)).toBe(true);
    const deltas = events.filter((e) => e.type === 'text.delta');
    expect(deltas.map((d) => d.text).join('')).toBe('Let me check.It is sunny.');
    expect(events.filter((e) => e.type === 'step.start').map((e) => e.step)).toEqual([1, 2]);
    const firstDone = events[5];
    expect(firstDone).toMatchObject({
      type: 'step.done',
      step: 1,
      finishReason: 'tool-calls',
      text: 'Let me check.',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris', days: 2 } }],
    });
    expect(events[6]).toMatchObject({ type: 'tool.start', step: 1, toolCall: { id: 'c1', name: 'get_weather' } });
    expect(events[7]).toEqual({
      type: 'tool.done',
      runId,
      step: 1,
      toolCallId: 'c1',
      toolName: 'get_weather',
      result: 'Paris: sunny for 2 day(s)',
      isError: false,
    });
    const last = events.at(-1);
    if (last?.type !== 'run.done') throw new Error('the last event is not run.done');
    expect(last.result.text).toBe('It is sunny.');
    expect(await stream.result).toBe(last.result);
  });

  it('resolves .result to the result without iterating', async () => {
    const stream = createAgent({ provider: mockModel(['done']) }).stream('hi');
    const result = await stream.result;
    expect(result).toMatchObject({ text: 'done', steps: 1, finishReason: 'stop' });
  });

  it('yields run.error and throws the LoushoError when the run fails', async () => {
    const stream = createAgent({ provider: mockModel([new Error('boom')]) }).stream('hi');
    const events: AgentEvent[] = [];
    let caught: unknown;
    try {
      for await (const event of stream) events.push(event);
    } catch (error) {
      caught = error;
    }
    expect(events.map((e) => e.type)).toEqual(['run.start', 'step.start', 'run.error']);
    expect(LoushoError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED' });
    expect(events[2]).toMatchObject({ type: 'run.error', error: { code: 'LOUSHO_PROVIDER_FAILED' } });
    await expect(stream.result).rejects.toBe(caught);
  });

  it('sends the events to createAgent({ onEvent }) and send(…, { onEvent }) too', async () => {
    const agentEvents: string[] = [];
    const runEvents: string[] = [];
    const agent = createAgent({ provider: mockModel(['a', 'b']), onEvent: (e) => agentEvents.push(e.type) });
    await agent.send('hi', { onEvent: (e) => runEvents.push(e.type) });
    expect(agentEvents).toEqual(['run.start', 'step.start', 'text.delta', 'step.done', 'run.done']);
    expect(runEvents).toEqual(agentEvents);
    const streamed: string[] = [];
    for await (const e of agent.stream('again')) streamed.push(e.type);
    expect(streamed).toEqual(['run.start', 'step.start', 'text.delta', 'step.done', 'run.done']);
    expect(agentEvents).toHaveLength(10);
  });

  it('keeps running when a listener throws', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const agent = createAgent({
      provider: mockModel(['ok']),
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect((await agent.send('hi')).text).toBe('ok');
    expect(error).toHaveBeenCalled();
  });
});

// ---------------------------------------------------------------- tools

describe('tools', () => {
  it('infers the execute() argument type from a zod 4 schema', () => {
    expectTypeOf<Parameters<typeof weather.execute>[0]>().toEqualTypeOf<{ city: string; days: number }>();
    expectTypeOf(weather).toExtend<Tool<{ city: string; days: number }, string>>();
    expectTypeOf<Parameters<typeof add.execute>[0]>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('sends the JSON schemas of zod and plain JSON Schema tools in request.tools', async () => {
    const model = mockModel(['ok']);
    await createAgent({ provider: model, tools: [weather, add] }).send('hi');
    const tools = model.calls[0]?.tools ?? [];
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'add']);
    expect(tools[0]).toMatchObject({
      name: 'get_weather',
      description: 'Get the weather forecast for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
        required: ['city', 'days'],
      },
    });
    expect(tools[0]?.parameters).not.toHaveProperty('$schema');
    expect(tools[1]).toEqual({ name: 'add', description: 'Add two numbers', parameters: add.parameters });
  });

  it('sends no tools key when the agent has no tools', async () => {
    const model = mockModel(['ok']);
    await createAgent({ provider: model }).send('hi');
    expect(model.calls[0]).not.toHaveProperty('tools');
  });

  it('runs a tool with validated arguments and sends its result (objects as JSON) to the model', async () => {
    const { seen, step } = recording((_r, i) =>
      i === 0 ? { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] } : 'five',
    );
    const result = await createAgent({ provider: mockModel(step), tools: [add] }).send('2+3');
    expect(seen[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', toolName: 'add', content: '{"sum":5}' });
    expect(result.text).toBe('five');
  });

  it('passes the parsed zod output and the call id to execute()', async () => {
    const execute = vi.fn((args: { n: number }, ctx: { toolCallId: string }) => `${args.n * 2} for ${ctx.toolCallId}`);
    const double = tool({
      name: 'double',
      parameters: z.object({ n: z.coerce.number() }),
      execute,
    });
    const model = mockModel([{ toolCalls: [{ id: 'x9', name: 'double', arguments: { n: '21' } }] }, 'ok']);
    const result = await createAgent({ provider: model, tools: [double] }).send('double 21');
    expect(execute).toHaveBeenCalledWith({ n: 21 }, expect.objectContaining({ toolCallId: 'x9' }));
    expect(toolResults(result.messages)[0]?.content).toBe('42 for x9');
  });

  it.each([
    ['zod', 'get_weather', { city: 42 }, /city/],
    ['JSON Schema', 'add', { a: 1, b: 'two', c: 3 }, /\$\.b: .*"number".*\$\.c is not allowed/],
  ])('turns invalid arguments (%s) into an error result the model reads', async (_kind, name, args, pattern) => {
    const execute = vi.fn(() => 'should not run');
    const guarded = tool({ name: 'spy', parameters: { type: 'object' }, execute });
    const { seen, step } = recording((_r, i) =>
      i === 0 ? { toolCalls: [{ id: 'bad', name, arguments: args }] } : 'I will fix it',
    );
    const result = await createAgent({ provider: mockModel(step), tools: [weather, add, guarded] }).send('go');
    const error = seen[1]?.messages.at(-1);
    expect(error).toMatchObject({ role: 'tool', toolCallId: 'bad', isError: true });
    const text = contentText(error?.content ?? '');
    expect(text).toContain(`invalid arguments for ${name}`);
    expect(text).toMatch(pattern);
    expect(result.text).toBe('I will fix it');
    expect(execute).not.toHaveBeenCalled();
  });

  it('turns a call to an unknown tool into an error result naming the available tools', async () => {
    const { seen, step } = recording((_r, i) => (i === 0 ? { toolCalls: [{ id: 'u', name: 'teleport' }] } : 'sorry'));
    const result = await createAgent({ provider: mockModel(step), tools: [weather, add] }).send('go');
    const error = seen[1]?.messages.at(-1);
    expect(error).toMatchObject({ role: 'tool', toolCallId: 'u', toolName: 'teleport', isError: true });
    expect(contentText(error?.content ?? '')).toMatch(/no tool named 'teleport'.*get_weather, add/);
    expect(result.text).toBe('sorry');
  });

  it('turns a throwing tool into an error result with its message', async () => {
    const broken = tool({
      name: 'broken',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const { seen, step } = recording((_r, i) => (i === 0 ? { toolCalls: [{ id: 'b', name: 'broken' }] } : 'noted'));
    const events: AgentEvent[] = [];
    const result = await createAgent({ provider: mockModel(step), tools: [broken] }).send('go', {
      onEvent: (e) => events.push(e),
    });
    expect(seen[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'b',
      toolName: 'broken',
      content: 'Error: disk on fire',
      isError: true,
    });
    expect(events.find((e) => e.type === 'tool.done')).toMatchObject({ isError: true, result: 'Error: disk on fire' });
    expect(result.text).toBe('noted');
  });

  it('runs the tool calls of one turn concurrently and returns their results in call order', async () => {
    const gate = deferred();
    const order: string[] = [];
    const waiter = tool({
      name: 'waiter',
      parameters: z.object({}),
      execute: async () => {
        order.push('waiter started');
        await gate.promise; // only opener opens it: sequential execution would hang here
        order.push('waiter done');
        return 'waited';
      },
    });
    const opener = tool({
      name: 'opener',
      parameters: z.object({}),
      execute: () => {
        order.push('opener ran');
        gate.resolve();
        return 'opened';
      },
    });
    const model = mockModel([
      {
        toolCalls: [
          { id: 'w', name: 'waiter' },
          { id: 'o', name: 'opener' },
        ],
      },
      'both done',
    ]);
    const run = createAgent({ provider: model, tools: [waiter, opener] }).send('go');
    const result = await within(run, 2_000, 'the tool calls of one turn ran one after the other');
    expect(order).toEqual(['waiter started', 'opener ran', 'waiter done']);
    expect(toolResults(result.messages).map((m) => [m.toolCallId, m.content])).toEqual([
      ['w', 'waited'],
      ['o', 'opened'],
    ]);
  });
});

// ---------------------------------------------------------------- abort

describe('aborting a run', () => {
  it('rejects with LOUSHO_ABORTED during a slow tool, with a valid partial transcript', async () => {
    const started = deferred();
    const slow = tool({
      name: 'slow',
      parameters: z.object({}),
      execute: (_args, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          started.resolve();
          abortSignal?.addEventListener('abort', () => reject(new Error('stopped by abort')), { once: true });
        }),
    });
    const model = mockModel([{ toolCalls: [{ id: 's1', name: 'slow' }] }, 'never reached']);
    const controller = new AbortController();
    const run = createAgent({ provider: model, tools: [slow], instructions: 'sys' }).send('go', {
      abortSignal: controller.signal,
    });
    await within(started.promise, 2_000, 'the slow tool never started');
    controller.abort();
    const error = await within(rejection(run), 2_000, 'the aborted run did not settle');
    expect(error.code).toBe('LOUSHO_ABORTED');
    const partial = partialResult(error);
    expect(partial?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(partial?.messages.at(-1)).toMatchObject({ toolCallId: 's1', isError: true });
    expect(findPairingProblem(partial?.messages ?? [])).toBeUndefined();
    expect(model.calls).toHaveLength(1);
  });

  it('rejects with LOUSHO_ABORTED during a slow model reply, keeping the earlier steps', async () => {
    const model = mockModel([
      { toolCalls: [{ id: 'a1', name: 'add', arguments: { a: 1, b: 1 } }] },
      { text: 'too late', delayMs: 60_000 },
    ]);
    const controller = new AbortController();
    const run = createAgent({ provider: model, tools: [add] }).send('go', { abortSignal: controller.signal });
    await vi.waitFor(() => expect(model.calls).toHaveLength(2));
    controller.abort();
    const error = await within(rejection(run), 2_000, 'the slow model reply was not aborted');
    expect(error.code).toBe('LOUSHO_ABORTED');
    const partial = partialResult(error);
    expect(partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(findPairingProblem(partial?.messages ?? [])).toBeUndefined();
    expect(partial?.steps).toBe(1);
  });

  it('aborts a streamed run: run.error is yielded and the iteration throws LOUSHO_ABORTED', async () => {
    const model = mockModel([{ text: 'too late', delayMs: 60_000 }]);
    const controller = new AbortController();
    const stream = createAgent({ provider: model }).stream('go', { abortSignal: controller.signal });
    const types: string[] = [];
    const consume = (async () => {
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'step.start') setTimeout(() => controller.abort(), 5);
      }
    })();
    const error = await within(rejection(consume), 2_000, 'the streamed run was not aborted');
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(types).toEqual(['run.start', 'step.start', 'run.error']);
    expect(partialResult(error)?.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('does not call the model when the signal is already aborted', async () => {
    const model = mockModel(['ok']);
    const error = await rejection(createAgent({ provider: model }).send('go', { abortSignal: AbortSignal.abort() }));
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(model.calls).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- hooks

describe('hooks', () => {
  it('gives preGenerate { request, run } without emit when nobody listens', async () => {
    const contexts: PreGenerateContext[] = [];
    const agent = createAgent({
      provider: mockModel(['ok']),
      hooks: [{ name: 'spy', preGenerate: (ctx) => void contexts.push(ctx) }],
    });
    await agent.send('hi');
    const ctx = contexts[0];
    expect(ctx?.request.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(ctx?.run.step).toBe(1);
    expect(ctx?.run.messages).toBe(ctx?.request.messages);
    expect(ctx?.run.provider.modelId).toBe('mock-model');
    expect(ctx !== undefined && 'emit' in ctx).toBe(false);
  });

  it.each([
    ['createAgent({ onEvent })', 'agent'],
    ['send(…, { onEvent })', 'send'],
    ['stream()', 'stream'],
  ])('gives preGenerate an emit that reaches the listeners with %s', async (_label, how) => {
    const received: AgentEvent[] = [];
    const listener = (e: AgentEvent) => void received.push(e);
    const hook: AgentHook = {
      name: 'reporter',
      preGenerate: ({ emit, run }) => {
        expect(typeof emit).toBe('function');
        emit?.({
          type: 'recovery.done',
          runId: run.runId,
          step: run.step,
          kind: 'output-truncated',
          action: 'x',
          attempt: 1,
        });
      },
    };
    const agent = createAgent({
      provider: mockModel(['ok']),
      hooks: [hook],
      ...(how === 'agent' ? { onEvent: listener } : {}),
    });
    if (how === 'stream') {
      for await (const e of agent.stream('hi')) received.push(e);
    } else {
      await agent.send('hi', how === 'send' ? { onEvent: listener } : {});
    }
    expect(received.map((e) => e.type)).toEqual([
      'run.start',
      'step.start',
      'recovery.done',
      'text.delta',
      'step.done',
      'run.done',
    ]);
  });

  it('lets a preGenerate hook add a message the model sees', async () => {
    const { seen, step } = recording(() => 'ok');
    const agent = createAgent({
      provider: mockModel(step),
      hooks: [
        {
          name: 'reminder',
          preGenerate: ({ request, run }) => {
            if (run.step === 1) request.messages.push({ role: 'user', content: 'Reminder: be brief.' });
          },
        },
      ],
    });
    const result = await agent.send('hi');
    expect(seen[0]?.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'user', content: 'Reminder: be brief.' },
    ]);
    expect(result.messages[1]).toEqual({ role: 'user', content: 'Reminder: be brief.' });
  });

  it('gives postGenerate the request and the response', async () => {
    const contexts: PostGenerateContext[] = [];
    const agent = createAgent({
      provider: mockModel([{ text: 'answer', usage: { inputTokens: 7, outputTokens: 3 } }]),
      hooks: [{ name: 'post', postGenerate: (ctx) => void contexts.push(ctx) }],
    });
    await agent.send('hi');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.response).toMatchObject({
      text: 'answer',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 7, outputTokens: 3 },
    });
    expect(contexts[0]?.request.model).toBe('mock-model');
    expect(contexts[0]?.run.usage.modelCalls).toHaveLength(1);
  });

  it('runs hooks in registration order, the compaction hook last', async () => {
    const order: string[] = [];
    const hook = (name: string): AgentHook => ({
      name,
      preGenerate: () => void order.push(`${name}.pre`),
      postGenerate: () => void order.push(`${name}.post`),
    });
    const agent = createAgent({
      provider: mockModel(['ok']),
      hooks: [hook('b'), hook('a'), hook('c')],
      compaction: true,
    });
    expect(agent.hooks.list().map((h) => h.name)).toEqual(['b', 'a', 'c', 'compaction']);
    await agent.send('hi');
    expect(order).toEqual(['b.pre', 'a.pre', 'c.pre', 'b.post', 'a.post', 'c.post']);
  });

  it.each([
    ['preGenerate', { name: 'bad', preGenerate: () => Promise.reject(new Error('nope')) }],
    [
      'postGenerate',
      {
        name: 'bad',
        postGenerate: () => {
          throw new Error('nope');
        },
      },
    ],
  ] as const)('ends the run with LOUSHO_HOOK_FAILED when %s throws', async (_where, hook) => {
    const error = await rejection(createAgent({ provider: mockModel(['ok']), hooks: [hook] }).send('hi'));
    expect(error.code).toBe('LOUSHO_HOOK_FAILED');
    expect(error.message).toContain("Hook 'bad'");
    expect(error.message).toContain('nope');
    expect(partialResult(error)?.messages[0]).toEqual({ role: 'user', content: 'hi' });
  });

  it('rejects a hook list with a duplicate name (including a user hook named compaction)', () => {
    const h: AgentHook = { name: 'same', preGenerate: () => {} };
    expect(thrown(() => createAgent({ provider: mockModel([]), hooks: [h, { ...h }] })).code).toBe(
      'LOUSHO_CONFIG_INVALID',
    );
    const own = thrown(() =>
      createAgent({
        provider: mockModel([]),
        hooks: [{ name: 'compaction', preGenerate: () => {} }],
        compaction: true,
      }),
    );
    expect(own.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(own.message).toContain("'compaction'");
  });
});

// ---------------------------------------------------------------- limits

describe('limits', () => {
  const loop = () =>
    mockModel((_r, i) => ({
      toolCalls: [{ id: `c${i}`, name: 'add', arguments: { a: i, b: 1 } }],
      usage: { inputTokens: 40, outputTokens: 10 },
    }));

  it('ends the run at limits.maxSteps with LOUSHO_LIMIT_EXCEEDED and the partial result', async () => {
    const model = loop();
    const error = await rejection(createAgent({ provider: model, tools: [add], limits: { maxSteps: 3 } }).send('go'));
    expect(error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
    expect(error.message).toContain('maxSteps');
    expect(error.details).toMatchObject({ limit: 'maxSteps', value: 3, max: 3 });
    expect(model.calls).toHaveLength(3);
    const partial = partialResult(error);
    expect(partial?.steps).toBe(3);
    expect(toolResults(partial?.messages ?? [])).toHaveLength(3);
    expect(findPairingProblem(partial?.messages ?? [])).toBeUndefined();
  });

  it('stops a runaway run at the default of 100 steps', async () => {
    const model = loop();
    const error = await rejection(createAgent({ provider: model, tools: [add] }).send('go'));
    expect(error.details).toMatchObject({ limit: 'maxSteps', max: 100 });
    expect(model.calls).toHaveLength(100);
  });

  it('ends the run at limits.maxTokens', async () => {
    const model = loop();
    const error = await rejection(
      createAgent({ provider: model, tools: [add], limits: { maxTokens: 120 } }).send('go'),
    );
    expect(error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
    expect(error.message).toContain('maxTokens');
    expect(error.details).toMatchObject({ limit: 'maxTokens', value: 150, max: 120 });
    expect(model.calls).toHaveLength(3);
    expect(partialResult(error)?.usage.totalTokens).toBe(150);
  });

  it('ends the run at limits.maxCostUsd for a priced model', async () => {
    const model = mockModel(
      (_r, i) => ({
        toolCalls: [{ id: `c${i}`, name: 'add', arguments: { a: 1, b: 1 } }],
        usage: { inputTokens: 100_000, outputTokens: 0 },
      }),
      { modelId: 'gpt-4o' },
    );
    const price = getModelInfo('gpt-4o')?.inputPricePerMillion ?? Number.NaN;
    const perCall = (100_000 * price) / 1e6;
    const error = await rejection(
      createAgent({ provider: model, tools: [add], limits: { maxCostUsd: perCall * 1.5 } }).send('go'),
    );
    expect(error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
    expect(error.message).toContain('maxCostUsd');
    expect(error.details).toMatchObject({ limit: 'maxCostUsd' });
    expect(model.calls).toHaveLength(2);
    expect(partialResult(error)?.usage.costUsd).toBeCloseTo(perCall * 2, 12);
  });

  it('does not fail a run that finishes within its limits', async () => {
    const model = mockModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, '2']);
    const result = await createAgent({ provider: model, tools: [add], limits: { maxSteps: 2 } }).send('go');
    expect(result.text).toBe('2');
  });

  it.each([
    [{ maxSteps: 0 }, 'maxSteps'],
    [{ maxSteps: 1.5 }, 'maxSteps'],
    [{ maxSteps: '10' }, 'maxSteps'],
    [{ maxTokens: -1 }, 'maxTokens'],
    [{ maxTokens: Number.NaN }, 'maxTokens'],
    [{ maxCostUsd: 0 }, 'maxCostUsd'],
    [{ maxCostUsd: Number.POSITIVE_INFINITY }, 'maxCostUsd'],
  ])('rejects limits %j with LOUSHO_CONFIG_INVALID naming %s', (limits, name) => {
    const error = thrown(() => createAgent({ provider: mockModel([]), limits: limits as never }));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(error.message).toContain(`limits.${name}`);
  });

  it('rejects limits that are not an object', () => {
    expect(thrown(() => createAgent({ provider: mockModel([]), limits: 5 as never })).code).toBe(
      'LOUSHO_CONFIG_INVALID',
    );
  });
});

// ---------------------------------------------------------------- configuration

describe('createAgent() configuration errors', () => {
  const configErrorOf = (options: unknown) => {
    const error = thrown(() => createAgent(options as Parameters<typeof createAgent>[0]));
    expect(error.code).toBe('LOUSHO_CONFIG_INVALID');
    return error.message;
  };

  it('needs options and a model', () => {
    expect(configErrorOf(undefined)).toMatch(/options object/);
    expect(configErrorOf({})).toMatch(/needs a model.*provider\/model/);
    expect(configErrorOf({ model: 42 })).toMatch(/needs a model/);
    expect(configErrorOf({ provider: { modelId: 'x' } })).toMatch(/needs a model/);
  });

  it('refuses both model and provider', () => {
    expect(configErrorOf({ model: 'openai/gpt-4o', provider: mockModel([]) })).toMatch(/either model or provider/);
  });

  it('needs tools and hooks to be arrays and onEvent a function', () => {
    expect(configErrorOf({ provider: mockModel([]), tools: add })).toMatch(/tools must be an array/);
    expect(configErrorOf({ provider: mockModel([]), hooks: {} })).toMatch(/hooks must be an array/);
    expect(configErrorOf({ provider: mockModel([]), onEvent: 'log' })).toMatch(/onEvent must be a function/);
  });

  it('refuses duplicate tool names', () => {
    expect(configErrorOf({ provider: mockModel([]), tools: [add, { ...add }] })).toMatch(/Two tools are named 'add'/);
  });

  it.each(['', 'has space', 'dot.name', 'x'.repeat(65), 'ünïcode'])('refuses the tool name %j', (name) => {
    expect(configErrorOf({ provider: mockModel([]), tools: [{ ...add, name }] })).toMatch(/Tool name .* is invalid/);
  });

  it('refuses a tool without execute() or parameters', () => {
    expect(configErrorOf({ provider: mockModel([]), tools: [{ name: 'x', parameters: {} }] })).toMatch(/execute/);
    expect(configErrorOf({ provider: mockModel([]), tools: [{ name: 'x', execute: () => 1 }] })).toMatch(/parameters/);
  });

  it('refuses an unknown compaction key, naming it and the valid ones', () => {
    const message = configErrorOf({ provider: mockModel([]), compaction: { threshold: 0.8 } });
    expect(message).toContain("unknown option 'threshold'");
    expect(message).toContain('thresholdPercent');
  });

  it('refuses summarizer combined with strategy', () => {
    const message = configErrorOf({
      provider: mockModel([]),
      compaction: { summarizer: mockModel([]), strategy: { name: 's', compact: () => ({}) } },
    });
    expect(message).toMatch(/summarizer and strategy cannot be combined/);
  });

  it('refuses a compaction value that is neither boolean nor object', () => {
    expect(configErrorOf({ provider: mockModel([]), compaction: 'yes' })).toMatch(/compaction must be/);
  });

  it('defers an unknown provider prefix to send(), which rejects with LOUSHO_PROVIDER_NOT_FOUND', async () => {
    const agent = createAgent({ model: 'nosuchvendor/some-model' });
    const error = await rejection(agent.send('hi'));
    expect(error.code).toBe('LOUSHO_PROVIDER_NOT_FOUND');
    expect(error.message).toContain('nosuchvendor');
  });

  it('rejects stream().result (instead of throwing) for an unknown provider prefix', async () => {
    const agent = createAgent({ model: 'nosuchvendor/some-model' });
    const stream = agent.stream('hi');
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = stream.result;
    }).not.toThrow();
    const error = await rejection(result ?? Promise.resolve());
    expect(error.code).toBe('LOUSHO_PROVIDER_NOT_FOUND');
  });
});

describe('createAgent({ summarizer })', () => {
  it('is shorthand for compaction: { summarizer } and may point at a cheaper model than the agent', async () => {
    const { LLMSummarizer } = await import('../core/llm-summarizer.js');
    const { readingTranscript } = await import('../test-support/transcripts.js');
    const cheap = mockModel(() => 'Summary of the early turns.', { modelId: 'cheap' });
    const agent = createAgent({
      provider: mockModel(['ok']),
      summarizer: new LLMSummarizer({ model: cheap }),
      compaction: { contextWindow: 40_000, thresholdPercent: 0.1, protectedTokens: 0 },
    });
    expect(agent.hooks.has('compaction')).toBe(true);
    const events: AgentEvent[] = [];
    const history = [...readingTranscript(8, 6_000), { role: 'user' as const, content: 'Go on.' }];
    const result = await agent.send(history, { onEvent: (e) => events.push(e) });
    const start = events.find((e) => e.type === 'compaction.start');
    expect(start?.type === 'compaction.start' && start.strategy).toBe('two-phase');
    expect(cheap.calls).toHaveLength(1);
    expect(result.usage.byModel.cheap?.calls).toBe(1);
  });

  it('rejects a second summarizer, a strategy beside it, or compaction: false', () => {
    const provider = mockModel([]);
    expect(thrown(() => createAgent({ provider, summarizer: 'openai/gpt-4o-mini', compaction: false })).code).toBe(
      'LOUSHO_CONFIG_INVALID',
    );
    expect(
      thrown(() =>
        createAgent({ provider, summarizer: 'openai/gpt-4o-mini', compaction: { summarizer: 'openai/gpt-4o-mini' } }),
      ).message,
    ).toMatch(/pass the summarizer once/);
  });
});
