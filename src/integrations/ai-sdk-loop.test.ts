import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import {
  generateText,
  type LanguageModelMiddleware,
  type ModelMessage,
  stepCountIs,
  streamText,
  ToolLoopAgent,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { CompactionEvent } from '../contracts/agent-event.js';
import { contentText } from '../messages/content.js';
import { findPairingProblem } from '../messages/validate.js';
import { startScriptedChatServer } from '../test-support/scripted-chat-server.js';
import { prose } from '../test-support/text.js';
import { mockModel } from '../testing/mock-model.js';
import { compactionMiddleware } from './compaction-middleware.js';
import { compactionPrepareStep } from './compaction-prepare-step.js';

const WINDOW = 16_000;
const STEPS = 100;
/** What the loopback provider counts beyond the messages (a gateway's framing): only calibration sees it. */
const HIDDEN = 1_500;
const DOCUMENT = `Key document: ${prose(7, 10_000)}`;

const readFile = tool({
  description: 'Read a file of the repository',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `// ${path}\n${prose(path.length * 31 + Number(/\d+/.exec(path)?.[0] ?? 0), 8_000)}`,
});

const history = (): ModelMessage[] => [
  { role: 'user', content: DOCUMENT, providerOptions: { lousho: { pinned: true } } },
  { role: 'user', content: 'Review every file of the repository.' },
];

const summarizer = () =>
  mockModel(() => 'Summary: the user asked for a review; files were read one by one.', { modelId: 'summarizer' });

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function loopback() {
  const server = await startScriptedChatServer(STEPS, { hiddenTokens: HIDDEN });
  servers.push(server);
  const model = createOpenAICompatible({
    name: 'loopback',
    baseURL: `${server.url}/v1`,
    apiKey: 'k',
    includeUsage: true,
  })('loopback-16k');
  return { server, model };
}

/** What every loop must show: each request under the window, valid, with the pinned document, after real compactions. */
function expectCompactedLoop(server: Awaited<ReturnType<typeof loopback>>['server'], events: CompactionEvent[]) {
  expect(server.answered).toHaveLength(STEPS);
  const peak = Math.max(...server.answered.map((r) => r.promptTokens));
  expect(peak).toBeLessThan(WINDOW);
  for (const request of server.answered) {
    expect(findPairingProblem(request.messages)).toBeUndefined();
    expect(request.messages.some((m) => m.role === 'user' && contentText(m.content) === DOCUMENT)).toBe(true);
  }
  const last = server.answered[STEPS - 1]?.messages ?? [];
  expect(last.some((m) => m.role === 'tool' && contentText(m.content).startsWith('[pruned: read_file('))).toBe(true);
  const done = events.filter((e) => e.type === 'compaction.done' && e.unchanged !== true);
  expect(done.some((e) => e.type === 'compaction.done' && e.summary === true)).toBe(true);
  // Without compaction the last request would have held every result: over ten windows.
  const uncompacted = STEPS * 2_000;
  expect(uncompacted).toBeGreaterThan(10 * WINDOW);
}

describe('compactionMiddleware() in wrapLanguageModel', () => {
  it('keeps a 100-step generateText tool loop with large results under a 16K window, valid, pinned messages kept', async () => {
    const { server, model } = await loopback();
    const events: CompactionEvent[] = [];
    const middleware = compactionMiddleware({
      contextWindow: WINDOW,
      strategy: twoPhaseStrategy({ model: summarizer() }),
      onEvent: (e) => events.push(e),
    });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware }),
      system: 'You are a careful code reviewer.',
      messages: history(),
      tools: { read_file: readFile },
      stopWhen: stepCountIs(STEPS),
    });
    expect(result.text).toBe('Done.');
    expectCompactedLoop(server, events);
    expect(server.answered.every((r) => r.messages[0]?.content === 'You are a careful code reviewer.')).toBe(true);
  }, 120_000);

  it('does the same for streamText, calibrating from the usage of the stream', async () => {
    const { server, model } = await loopback();
    const events: CompactionEvent[] = [];
    const middleware = compactionMiddleware({
      contextWindow: WINDOW,
      strategy: twoPhaseStrategy({ model: summarizer() }),
      onEvent: (e) => events.push(e),
    });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware }),
      messages: history(),
      tools: { read_file: readFile },
      stopWhen: stepCountIs(STEPS),
    });
    expect(await result.text).toBe('Done.');
    expect(server.answered.every((r) => r.stream)).toBe(true);
    expectCompactedLoop(server, events);
  }, 120_000);
});

describe('compactionPrepareStep()', () => {
  it('keeps a 100-step generateText tool loop under a 16K window, valid, pinned messages kept', async () => {
    const { server, model } = await loopback();
    const events: CompactionEvent[] = [];
    const result = await generateText({
      model,
      messages: history(),
      tools: { read_file: readFile },
      stopWhen: stepCountIs(STEPS),
      prepareStep: compactionPrepareStep({
        contextWindow: WINDOW,
        strategy: twoPhaseStrategy({ model: summarizer() }),
        onEvent: (e) => events.push(e),
      }),
    });
    expect(result.text).toBe('Done.');
    expectCompactedLoop(server, events);
  }, 120_000);

  it('does the same for a streaming ToolLoopAgent', async () => {
    const { server, model } = await loopback();
    const events: CompactionEvent[] = [];
    const agent = new ToolLoopAgent({
      model,
      tools: { read_file: readFile },
      stopWhen: stepCountIs(STEPS),
      prepareStep: compactionPrepareStep({
        contextWindow: WINDOW,
        strategy: twoPhaseStrategy({ model: summarizer() }),
        onEvent: (e) => events.push(e),
      }),
    });
    const result = await agent.stream({ messages: history() });
    expect(await result.text).toBe('Done.');
    expectCompactedLoop(server, events);
  }, 120_000);
});

/**
 * Counts which prompt messages our code reads: each message handed to it is wrapped (once
 * per object, so a message handed again keeps its reference) in a proxy that notes a read
 * of any of its properties while `active`.
 */
class ReadCounter {
  readonly read = new Set<object>();
  active = false;
  readonly #proxies = new WeakMap<object, object>();

  wrap<M extends object>(messages: readonly M[]): M[] {
    return messages.map((m) => {
      let proxy = this.#proxies.get(m);
      if (proxy === undefined) {
        proxy = new Proxy(m, {
          get: (target, key, receiver) => {
            if (this.active) this.read.add(receiver);
            return Reflect.get(target, key, receiver);
          },
        });
        this.#proxies.set(m, proxy);
      }
      return proxy as M;
    });
  }

  /** Runs `call` on `messages` and resolves to how many of the first `old` of them it read. */
  async count<R>(
    messages: readonly object[],
    old: number,
    call: () => Promise<R>,
  ): Promise<{ result: R; old: number }> {
    this.read.clear();
    this.active = true;
    try {
      const result = await call();
      return { result, old: messages.slice(0, old).filter((m) => this.read.has(m)).length };
    } finally {
      this.active = false;
    }
  }
}

/** A mock model of 'ai/test' that reads a file at every step, reporting no usage. */
function readingModel(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    modelId: 'reading-model',
    doGenerate: async () => {
      step++;
      return {
        content: [
          { type: 'tool-call', toolCallId: `call_${step}`, toolName: 'read_file', input: `{"path":"f${step}"}` },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

const smallRead = tool({
  description: 'Read a file of the repository',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `// ${path}\n${prose(path.length * 31 + Number(/\d+/.exec(path)?.[0] ?? 0), 1_000)}`,
});

const LONG = 1_000;

describe('in a 1,000-step loop', () => {
  it('compactionMiddleware() reads only the messages each step added and a bounded few old ones, the AI SDK rebuilding the prompt each step', async () => {
    const counter = new ReadCounter();
    const middleware = compactionMiddleware({ contextWindow: WINDOW });
    const readPerStep: number[] = [];
    const added: number[] = [];
    let previous = 0;
    let compactedSteps = 0;
    const counting: LanguageModelMiddleware = {
      specificationVersion: 'v3',
      transformParams: async ({ params, model, type }) => {
        const prompt = counter.wrap(params.prompt);
        const { result, old } = await counter.count(prompt, previous, () =>
          middleware.transformParams({ params: { ...params, prompt }, model, type }),
        );
        readPerStep.push(old);
        added.push(prompt.length - previous);
        previous = prompt.length;
        if (result.prompt !== prompt) compactedSteps++;
        return result;
      },
      wrapGenerate: (options) => middleware.wrapGenerate(options),
    };
    const model = readingModel();
    await generateText({
      model: wrapLanguageModel({ model, middleware: counting }),
      messages: history(),
      tools: { read_file: smallRead },
      stopWhen: stepCountIs(LONG),
    });
    expect(readPerStep).toHaveLength(LONG);
    expect(Math.max(...readPerStep)).toBeLessThanOrEqual(9);
    expect(Math.max(...added.slice(1))).toBe(2);
    expect(compactedSteps).toBeGreaterThan(LONG / 2);
    // What was sent at the last step is the compacted transcript, a small part of the AI SDK's.
    const last = (model.doGenerateCalls.at(-1) as LanguageModelV3CallOptions).prompt;
    expect(last.length).toBeLessThan(previous / 4);
  }, 300_000);

  it('compactionPrepareStep() reads none of the old messages, which the AI SDK hands again as they were', async () => {
    const counter = new ReadCounter();
    const prepare = compactionPrepareStep({ contextWindow: WINDOW });
    const readPerStep: number[] = [];
    let previous = 0;
    let compactedSteps = 0;
    const model = readingModel();
    await generateText({
      model,
      messages: history(),
      tools: { read_file: smallRead },
      stopWhen: stepCountIs(LONG),
      prepareStep: async (step) => {
        const messages = counter.wrap(step.messages);
        const { result, old } = await counter.count(messages, previous, () => prepare({ ...step, messages }));
        readPerStep.push(old);
        previous = messages.length;
        if (result !== undefined) compactedSteps++;
        return result;
      },
    });
    expect(readPerStep).toHaveLength(LONG);
    expect(Math.max(...readPerStep)).toBe(0);
    expect(compactedSteps).toBeGreaterThan(LONG / 2);
    const last = (model.doGenerateCalls.at(-1) as LanguageModelV3CallOptions).prompt;
    expect(last.length).toBeLessThan(previous / 4);
  }, 300_000);
});
