/**
 * The provider contract for OpenAI's Responses API: the real openai client against a loopback
 * server that speaks the documented wire format (JSON replies, SSE events, the API's error
 * bodies and in-stream error events).
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, sendJson, sendSse } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { responseEvents, responseObject, responsesReplies } from '../test-support/responses-server.js';
import { createOpenAIResponses } from './openai-responses.js';
import { resolveProvider } from './resolve-provider.js';

const MODEL = 'gpt-4.1';
const serve = useLoopbackServers();
isolateEnv();

const make = (server: LoopbackServer, retry: { maxRetries: number; initialDelayMs?: number } = { maxRetries: 0 }) =>
  createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-responses-1234', retry })(MODEL);
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hello' }] };
const USAGE = { inputTokens: 42, outputTokens: 7, cachedInputTokens: 32, reasoningTokens: 3 };

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const ADD = {
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }: Record<string, unknown>) => Number(a) + Number(b),
};

describe('createOpenAIResponses()', () => {
  it('answers a plain reply with text, finish reason and usage (cached and reasoning tokens apart)', async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: 'Hello there.' }]));
    const response = await make(server).generate(ask);
    expect(response).toMatchObject({ text: 'Hello there.', finishReason: 'stop', toolCalls: [], modelId: MODEL });
    expect(response.usage).toEqual(USAGE);
    expect(server.requests[0]?.path).toBe('/v1/responses');
    expect(server.requests[0]?.body).toEqual({
      model: MODEL,
      input: [{ type: 'message', role: 'user', content: 'Hello' }],
      store: false,
    });
  });

  it('streams a reply as text deltas and one finish part with usage', async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: 'one two three' }]));
    const parts = await collect(make(server).stream(ask));
    const deltas = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
    expect(deltas).toEqual(['one ', 'two ', 'three']);
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: USAGE, modelId: MODEL });
    expect((server.requests[0]?.body as { stream?: boolean } | undefined)?.stream).toBe(true);
  });

  it.each(['send', 'stream'] as const)('runs a tool-call round trip inside an agent (%s)', async (how) => {
    const server = await serve(
      responsesReplies(MODEL, [
        { calls: [{ id: 'call_1', name: 'add', args: '{"a":2,"b":3}' }] },
        { text: 'The sum is 5.' },
      ]),
    );
    const agent = createAgent({ provider: make(server), tools: [ADD] });
    const result = how === 'send' ? await agent.send('2+3?') : await agent.stream('2+3?').result;
    expect(result.text).toBe('The sum is 5.');
    expect(result.usage.inputTokens).toBe(84);
    expect(result.usage.cachedInputTokens).toBe(64);
    const [first, second] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(first?.tools).toEqual([
      // Closed, every property required: strict.
      {
        type: 'function',
        name: 'add',
        description: 'Add two numbers',
        parameters: { ...ADD.parameters, additionalProperties: false },
        strict: true,
      },
    ]);
    expect((second?.input as unknown[] | undefined)?.slice(-2)).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'add', arguments: '{"a":2,"b":3}' },
      { type: 'function_call_output', call_id: 'call_1', output: '5' },
    ]);
    // The run's id, hashed, on every step.
    expect(second?.prompt_cache_key).toMatch(/^[0-9a-f]{64}$/);
    expect(second?.prompt_cache_key).toBe(first?.prompt_cache_key);
    expect(second?.prompt_cache_key).not.toBe(result.runId);
  });

  it('sends no prompt_cache_key with promptCache: false', async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: 'ok' }]));
    const provider = createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test', promptCache: false })(MODEL);
    await provider.generate({ ...ask, cacheKey: 'session-of-alice' });
    await make(server).generate({ ...ask, cacheKey: 'session-of-alice' });
    const [off, on] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(off).not.toHaveProperty('prompt_cache_key');
    expect(on?.prompt_cache_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(on)).not.toContain('alice');
  });

  it('reports a reply cut at max_output_tokens as length, and sends the limit and the output schema', async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: '{"a":', incomplete: 'max_output_tokens' }]));
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    };
    const response = await make(server).generate({ ...ask, maxOutputTokens: 5, outputSchema: schema });
    expect(response.finishReason).toBe('length');
    expect(server.requests[0]?.body).toMatchObject({
      max_output_tokens: 5,
      text: { format: { type: 'json_schema', name: 'output', schema, strict: true } },
    });
  });

  it("maps the API's overflow body to LOUSHO_CONTEXT_OVERFLOW", async () => {
    const server = await serve((_r, response) =>
      sendJson(response, 400, {
        error: {
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      }),
    );
    const error = await rejection(make(server).generate(ask));
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(error.details).toMatchObject({ provider: 'openai', model: MODEL, status: 400 });
  });

  it('maps 429 with retry-after to LOUSHO_RATE_LIMITED, and retries it (bounded) when asked', async () => {
    const limited = await serve((_r, response) =>
      sendJson(
        response,
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '2' },
      ),
    );
    const error = await rejection(make(limited).generate(ask));
    expect(error).toMatchObject({ code: 'LOUSHO_RATE_LIMITED', isRetryable: true });
    expect(error.details?.retryAfterMs).toBe(2_000);

    let n = 0;
    const flaky = await serve((request, response) =>
      n++ === 0
        ? sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '0' })
        : responsesReplies(MODEL, [{ text: 'ok' }])(request, response),
    );
    expect((await make(flaky, { maxRetries: 2, initialDelayMs: 1 }).generate(ask)).text).toBe('ok');
    expect(flaky.requests).toHaveLength(2);

    const always = await serve((_r, response) =>
      sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '0' }),
    );
    expect((await rejection(make(always, { maxRetries: 2, initialDelayMs: 1 }).generate(ask))).code).toBe(
      'LOUSHO_RATE_LIMITED',
    );
    expect(always.requests).toHaveLength(3);
  });

  it('maps 401 to LOUSHO_AUTHENTICATION_FAILED without the key, and 500 to a retryable LOUSHO_PROVIDER_FAILED', async () => {
    const denied = await serve((_r, response) =>
      sendJson(response, 401, {
        error: {
          message: 'Incorrect API key provided: sk-test-responses-1234.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
    const auth = await rejection(make(denied).generate(ask));
    expect(auth.code).toBe('LOUSHO_AUTHENTICATION_FAILED');
    expect(auth.message).toContain('OPENAI_API_KEY');
    expect(JSON.stringify({ message: auth.message, cause: String(auth.cause) })).not.toContain(
      'sk-test-responses-1234',
    );

    const broken = await serve((_r, response) => sendJson(response, 500, { error: { message: 'internal error' } }));
    const error = await rejection(make(broken, { maxRetries: 1, initialDelayMs: 1 }).generate(ask));
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED', isRetryable: true });
    expect(broken.requests).toHaveLength(2);
  });

  it('classifies the errors a stream reports after its 200 by their code (response.failed, error events)', async () => {
    const failed = (code: string, message: string) => [
      responseEvents(MODEL, { text: '' }, 1)[0] as { event: string; data: unknown },
      {
        event: 'response.failed',
        data: {
          type: 'response.failed',
          response: { ...responseObject(MODEL, {}, 1), status: 'failed', error: { code, message } },
        },
      },
    ];
    const server = await serve((_r, response) =>
      sendSse(response, failed('rate_limit_exceeded', 'Rate limit reached for gpt-4.1. Please try again in 20s.')),
    );
    const limited = await rejection(collect(make(server).stream(ask)));
    expect(limited).toMatchObject({ code: 'LOUSHO_RATE_LIMITED', isRetryable: true });
    expect(limited.details?.retryAfterMs).toBe(20_000);

    server.handle((_r, response) =>
      sendSse(response, failed('context_length_exceeded', 'Your input exceeds the context window of this model.')),
    );
    expect((await rejection(collect(make(server).stream(ask)))).code).toBe('LOUSHO_CONTEXT_OVERFLOW');

    // The error event of the API reference (flat), then the form recorded from the API (nested).
    server.handle((_r, response) =>
      sendSse(response, [
        {
          event: 'error',
          data: { type: 'error', code: 'server_error', message: 'The server had an error.', param: null },
        },
      ]),
    );
    expect(await rejection(collect(make(server).stream(ask)))).toMatchObject({
      code: 'LOUSHO_PROVIDER_FAILED',
      isRetryable: true,
    });
    server.handle((_r, response) =>
      sendSse(response, [
        {
          event: 'error',
          data: {
            type: 'error',
            error: {
              type: 'insufficient_quota',
              code: 'insufficient_quota',
              message: 'You exceeded your current quota.',
            },
          },
        },
      ]),
    );
    expect(await rejection(collect(make(server).stream(ask)))).toMatchObject({
      code: 'LOUSHO_RATE_LIMITED',
      isRetryable: false,
      details: { quotaExceeded: true },
    });
  });

  it('retries a stream that failed before its first part, and refuses one that ended before response.completed', async () => {
    let n = 0;
    const server = await serve((request, response) =>
      n++ === 0
        ? sendSse(response, [{ event: 'error', data: { type: 'error', code: 'server_error', message: 'boom' } }])
        : responsesReplies(MODEL, [{ text: 'ok' }])(request, response),
    );
    const parts = await collect(make(server, { maxRetries: 1, initialDelayMs: 1 }).stream(ask));
    expect(parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []))).toEqual(['ok']);
    expect(server.requests).toHaveLength(2);

    server.handle((_r, response) => sendSse(response, responseEvents(MODEL, { text: 'cut short' }, 1).slice(0, -1)));
    const error = await rejection(collect(make(server).stream(ask)));
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED', isRetryable: true });
    expect(error.message).toContain('response.completed');
  });

  it('stops a stream when its signal aborts in the middle', async () => {
    const server = await serve((_r, response) =>
      sendSse(response, responseEvents(MODEL, { text: Array.from({ length: 20 }, (_, i) => `w${i} `).join('') }, 1), {
        delayMs: 50,
      }),
    );
    const controller = new AbortController();
    const deltas: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of make(server).stream({ ...ask, abortSignal: controller.signal })) {
          if (part.type === 'text-delta') deltas.push(part.text);
          if (deltas.length === 1) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(deltas).toHaveLength(1);
  });

  it('ends a stalled stream at streamIdleTimeoutMs with a retryable LOUSHO_PROVIDER_TIMEOUT', async () => {
    const server = await serve((_r, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`event: response.created\ndata: ${JSON.stringify(responseEvents(MODEL, {}, 1)[0]?.data)}\n\n`);
    });
    const provider = createOpenAIResponses({
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      retry: { maxRetries: 0 },
      streamIdleTimeoutMs: 200,
    })(MODEL);
    const error = await rejection(collect(provider.stream(ask)));
    expect(error).toMatchObject({
      code: 'LOUSHO_PROVIDER_TIMEOUT',
      isRetryable: true,
      details: { limit: 'streamIdleTimeoutMs' },
    });
  });

  it("is 'openai-responses/<model>' for resolveProvider(), reads OPENAI_API_KEY and OPENAI_BASE_URL, and needs a key", async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: 'from the env' }]));
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    expect((await rejection(resolveProvider(`openai-responses/${MODEL}`).generate(ask))).code).toBe(
      'LOUSHO_API_KEY_MISSING',
    );
    expect(server.requests).toHaveLength(0);
    process.env.OPENAI_API_KEY = 'sk-env';
    const provider = resolveProvider(`openai-responses/${MODEL}`);
    expect([provider.provider, provider.modelId]).toEqual(['openai', MODEL]);
    expect((await provider.generate(ask)).text).toBe('from the env');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-env');
  });

  it('refuses bad options with LOUSHO_CONFIG_INVALID naming the option', () => {
    expect(() => createOpenAIResponses({ store: 'no' as unknown as boolean })).toThrow(/store must be true or false/);
    expect(() => createOpenAIResponses({ reasoningSummary: 'long' as 'auto' })).toThrow(
      /reasoningSummary must be one of/,
    );
    expect(() => createOpenAIResponses({ stream: true } as never)).toThrow(/stream/);
  });
});
