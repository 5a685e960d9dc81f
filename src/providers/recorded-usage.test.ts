/**
 * Usage and cost from the recorded real replies in ../shared/fixtures/provider-recordings,
 * replayed byte for byte (or framed as each vendor frames its stream) by a loopback server
 * and read by the real clients: cache reads, cache writes and reasoning apart from plain
 * input and output, priced from the model table. Where the vendor stated its own price in
 * the reply (xAI's cost_in_usd_ticks, OpenRouter's cost), the run's costUsd must equal it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { RunUsage } from '../contracts/run-usage.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { rejection } from '../test-support/errors.js';
import type { ReceivedRequest } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import {
  anthropicStream,
  cassetteResponse,
  chatStream,
  RECORDINGS,
  recordedChunks,
  recordedJson,
  sendRecorded,
} from '../test-support/recordings.js';
import { createAnthropic } from './anthropic.js';
import { createOpenRouter } from './builtin.js';
import { createOpenAICompatible } from './openai-compatible.js';

if (RECORDINGS === undefined)
  console.warn('recorded-usage.test.ts: shared/fixtures/provider-recordings is not beside the checkout; skipped.');

const VERCEL = 'vercel-ai/packages';
const XAI_TEXT = `${VERCEL}/xai/src/__fixtures__/xai-text.chunks.txt`;
const XAI_TOOL = `${VERCEL}/xai/src/__fixtures__/xai-tool-call.chunks.txt`;
const DEEPSEEK_STREAM = `${VERCEL}/deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt`;
const DEEPSEEK_JSON = `${VERCEL}/deepseek/src/chat/__fixtures__/deepseek-tool-call.json`;
const OPENAI_TEXT = `${VERCEL}/openai/src/chat/__fixtures__/openai-text.chunks.txt`;
const ANTHROPIC_CACHE = `${VERCEL}/anthropic/src/__fixtures__/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt`;
const OPENROUTER_GROK =
  'pydantic-ai/tests/models/cassettes/test_openrouter/test_openrouter_stream_with_native_options.yaml.json';

const serve = useLoopbackServers();

/** The usage object of a recording's last chunk that has one. */
function recordedUsage(path: string): Record<string, unknown> {
  const withUsage = recordedChunks(path).filter((c) => c.usage !== undefined && c.usage !== null);
  return withUsage[withUsage.length - 1]?.usage as Record<string, unknown>;
}

/** A server that answers the n-th request with the n-th recording, as a chat-completions stream. */
async function chatReplay(paths: string[]) {
  let n = 0;
  return serve((_request, response) => {
    const path = paths[Math.min(n++, paths.length - 1)] as string;
    sendRecorded(response, 'text/event-stream', chatStream(recordedChunks(path)));
  });
}

const weather = tool({
  name: 'weather',
  description: 'The weather at a location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  execute: ({ location }) => `Sunny in ${String(location)}, 18°C.`,
});

const reasoningOf = (messages: readonly Message[]) =>
  messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content !== 'string' ? m.content.filter((p) => p.type === 'reasoning') : [],
  );

describe.skipIf(RECORDINGS === undefined)('usage and cost of recorded replies', () => {
  it("reads xAI's reasoning apart and adds it to the output, so the cost is what xAI charged (grok-3-mini, two calls)", async () => {
    const server = await chatReplay([XAI_TOOL, XAI_TEXT]);
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: createOpenAICompatible({ name: 'xai', baseURL: `${server.url}/v1`, apiKey: 'x' })('grok-3-mini'),
      tools: [weather],
      onEvent: (e) => events.push(e),
    });
    const result = await agent.send('What is the weather in San Francisco?');
    const [first, second] = result.usage.modelCalls;
    expect(first?.usage).toEqual({
      inputTokens: 291,
      outputTokens: 26 + 196,
      cachedInputTokens: 290,
      reasoningTokens: 196,
    });
    expect(second?.usage).toMatchObject({ inputTokens: 12, outputTokens: 1 + 290, reasoningTokens: 290 });
    // xAI states its price in ticks of 1e-10 USD: every token type at grok-3-mini's list price.
    const ticks = [XAI_TOOL, XAI_TEXT].map((p) => recordedUsage(p).cost_in_usd_ticks as number);
    expect(first?.costUsd).toBeCloseTo((ticks[0] as number) / 1e10, 15);
    expect(second?.costUsd).toBeCloseTo((ticks[1] as number) / 1e10, 15);
    expect(result.usage).toMatchObject({
      inputTokens: 303,
      cachedInputTokens: 301,
      reasoningTokens: 486,
      outputTokens: 513,
    } satisfies Partial<RunUsage>);
    expect(result.usage.costUsd).toBeCloseTo(((ticks[0] as number) + (ticks[1] as number)) / 1e10, 15);
    expect(result.usage.byModel['grok-3-mini']).toMatchObject({
      calls: 2,
      reasoningTokens: 486,
      cachedInputTokens: 301,
    });
    // The reasoning streamed as its own events and is kept as reasoning parts of the transcript.
    const streamed = events.flatMap((e) => (e.type === 'reasoning.delta' ? [e.text] : [])).join('');
    const recorded = [XAI_TOOL, XAI_TEXT]
      .flatMap((p) => recordedChunks(p))
      .map((c) => (c.choices as { delta?: { reasoning_content?: string } }[])[0]?.delta?.reasoning_content ?? '')
      .join('');
    expect(streamed).toBe(recorded);
    expect(reasoningOf(result.messages).map((p) => p.text)).toHaveLength(2);
    expect(reasoningOf(result.messages).every((p) => p.provider === 'xai')).toBe(true);
  });

  it('stops at limits.maxCostUsd on the price of the reasoning it billed', async () => {
    const server = await chatReplay([XAI_TOOL, XAI_TEXT]);
    const agent = createAgent({
      provider: createOpenAICompatible({ name: 'xai', baseURL: `${server.url}/v1`, apiKey: 'x' })('grok-3-mini'),
      tools: [weather],
      onEvent: () => {},
      // The first call costs $0.000133 with its 196 reasoning tokens, $0.000035 without them.
      limits: { maxCostUsd: 0.0001 },
    });
    const error = await rejection(agent.send('What is the weather in San Francisco?'));
    expect(error).toMatchObject({ code: 'LOUSHO_LIMIT_EXCEEDED' });
    expect(server.requests).toHaveLength(1);
  });

  it("reads DeepSeek's cached tokens and reasoning from a streamed and a whole reply, and prices them", async () => {
    const stream = recordedChunks(DEEPSEEK_STREAM);
    const whole = recordedJson(DEEPSEEK_JSON);
    const server = await serve((request, response) => {
      if ((request.body as { stream?: boolean }).stream === true)
        sendRecorded(response, 'text/event-stream', chatStream(stream));
      else sendRecorded(response, 'application/json', JSON.stringify(whole));
    });
    const provider = createOpenAICompatible({ name: 'deepseek', baseURL: `${server.url}/v1`, apiKey: 'x' })(
      'deepseek-reasoner',
    );
    const request = { model: 'deepseek-reasoner', messages: [{ role: 'user' as const, content: 'Weather in SF?' }] };
    const generated = await provider.generate(request);
    expect(generated.usage).toEqual({
      inputTokens: 339,
      outputTokens: 92,
      cachedInputTokens: 320,
      reasoningTokens: 48,
    });
    const message = (whole.choices as { message: { reasoning_content: string } }[])[0]?.message;
    expect(generated.parts?.[0]).toEqual({ type: 'reasoning', text: message?.reasoning_content, provider: 'deepseek' });
    const deltas: string[] = [];
    let finish: unknown;
    for await (const part of provider.stream(request)) {
      if (part.type === 'reasoning-delta') deltas.push(part.text);
      if (part.type === 'finish') finish = part.usage;
    }
    expect(finish).toEqual({ inputTokens: 339, outputTokens: 83, cachedInputTokens: 320, reasoningTokens: 39 });
    expect(deltas.join('')).toMatch(/^The user/);
    // Priced through a run: 19 uncached at $0.28, 320 cached at $0.028, 92 out at $0.42 per million.
    const agent = createAgent({ provider, limits: { maxSteps: 1 } });
    const partial = await rejection(agent.send('Weather in SF?'));
    const usage = (partial as { partialResult?: { usage: RunUsage } }).partialResult?.usage;
    expect(usage?.costUsd).toBeCloseTo((19 * 0.28 + 320 * 0.028 + 92 * 0.42) / 1e6, 15);
  });

  it('sends DeepSeek its reasoning back on the tool-call turn, which its thinking mode requires', async () => {
    let n = 0;
    const server = await serve((_request, response) => {
      n++;
      if (n === 1) sendRecorded(response, 'application/json', JSON.stringify(recordedJson(DEEPSEEK_JSON)));
      else
        sendRecorded(
          response,
          'application/json',
          JSON.stringify({ choices: [{ message: { content: 'Sunny, 18°C.' }, finish_reason: 'stop' }] }),
        );
    });
    const agent = createAgent({
      provider: createOpenAICompatible({ name: 'deepseek', baseURL: `${server.url}/v1`, apiKey: 'x' })(
        'deepseek-reasoner',
      ),
      tools: [weather],
    });
    await agent.send('Weather in SF?');
    const sent = (server.requests[1] as ReceivedRequest).body as { messages: Record<string, unknown>[] };
    const assistant = sent.messages.find((m) => m.role === 'assistant');
    const recorded = (recordedJson(DEEPSEEK_JSON).choices as { message: { reasoning_content: string } }[])[0];
    expect(assistant?.reasoning_content).toBe(recorded?.message.reasoning_content);
    expect(assistant?.tool_calls).toHaveLength(1);
  });

  it('prices an OpenRouter reply at the cost OpenRouter stated (x-ai/grok-4: cached input and reasoning)', async () => {
    const recorded = cassetteResponse(OPENROUTER_GROK);
    const server = await serve((_request, response) => sendRecorded(response, recorded.contentType, recorded.body));
    const agent = createAgent({
      provider: createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'x' })('x-ai/grok-4'),
      onEvent: () => {},
    });
    const result = await agent.send('Who are you');
    expect(result.usage.modelCalls[0]?.usage).toEqual({
      inputTokens: 687,
      outputTokens: 187,
      cachedInputTokens: 679,
      reasoningTokens: 118,
    });
    const stated = /"cost":([0-9.]+)/.exec(recorded.body)?.[1];
    expect(result.usage.costUsd).toBeCloseTo(Number(stated), 15);
  });

  it("reads Anthropic's cache reads, cache writes and thinking count from a recorded stream and prices them at claude-sonnet-5's rates", async () => {
    const server = await serve((_request, response) =>
      sendRecorded(response, 'text/event-stream', anthropicStream(recordedChunks(ANTHROPIC_CACHE))),
    );
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      onEvent: () => {},
    });
    const result = await agent.send('Run the code.');
    // message_delta's final counts: 6 plain, 6289 read, 3337 written, 198 out of which 0 thinking.
    expect(result.usage.modelCalls[0]?.usage).toEqual({
      inputTokens: 6 + 6289 + 3337,
      outputTokens: 198,
      cachedInputTokens: 6289,
      cacheWriteInputTokens: 3337,
      reasoningTokens: 0,
    });
    expect(result.usage).toMatchObject({ cachedInputTokens: 6289, cacheWriteInputTokens: 3337 });
    // The reply names claude-sonnet-5: input $2, reads $0.20, 5-minute writes $2.50, output $10 per million.
    expect(result.usage.costUsd).toBeCloseTo((6 * 2 + 6289 * 0.2 + 3337 * 2.5 + 198 * 10) / 1e6, 15);
    // A price registered for it wins over the table's.
    registerModel({
      id: 'claude-sonnet-5',
      provider: 'anthropic',
      contextWindow: 200_000,
      inputPricePerMillion: 3,
      outputPricePerMillion: 15,
    });
    onTestFinished(() => resetModelRegistry());
    const again = await agent.send('Run the code.');
    expect(again.usage.costUsd).toBeCloseTo((6 * 3 + 6289 * 0.3 + 3337 * 3.75 + 198 * 15) / 1e6, 15);
  });

  it("reads OpenAI's usage chunk (no cache hit, no reasoning) and prices it at the plain input price", async () => {
    const server = await chatReplay([OPENAI_TEXT]);
    const agent = createAgent({
      provider: createOpenAICompatible({ name: 'openai', baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-4.1-nano'),
      onEvent: () => {},
    });
    const result = await agent.send('Write a story.');
    expect(result.usage.modelCalls[0]?.usage).toEqual({
      inputTokens: 16,
      outputTokens: 300,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(result.usage.costUsd).toBeCloseTo((16 * 0.1 + 300 * 0.4) / 1e6, 15);
  });
});
