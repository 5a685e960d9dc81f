import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage, stepCountIs, streamText, ToolLoopAgent, tool, wrapLanguageModel } from 'ai';
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
