import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, startLoopbackServer } from '../test-support/loopback-server.js';
import { createAnthropic } from './anthropic.js';
import { createOpenAICompatible } from './openai-compatible.js';
import type { TimeoutOptions } from './request-timeout.js';

const servers: LoopbackServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

const noRetry = { retry: { maxRetries: 0 } };
const vendors: [string, (url: string, t: TimeoutOptions) => LLMProvider, (res: ServerResponse) => void][] = [
  [
    'openai-compatible',
    (url, t) => createOpenAICompatible({ baseURL: `${url}/v1`, apiKey: 'test-key-123456', ...noRetry, ...t })('m'),
    (res) => res.write(`data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`),
  ],
  [
    'anthropic',
    (url, t) => createAnthropic({ baseURL: url, apiKey: 'test-key-123456', ...noRetry, ...t })('claude-x'),
    (res) =>
      res.write(
        `event: message_start\ndata: ${JSON.stringify({
          type: 'message_start',
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'claude-x',
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        })}\n\n`,
      ),
  ],
];

const request = (abortSignal?: AbortSignal): ModelRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  ...(abortSignal === undefined ? {} : { abortSignal }),
});

async function drain(provider: LLMProvider, signal?: AbortSignal): Promise<void> {
  for await (const _ of provider.stream(request(signal))) {
    // read every part
  }
}

async function server(handler: Parameters<typeof startLoopbackServer>[0]): Promise<string> {
  const s = await startLoopbackServer(handler);
  servers.push(s);
  return s.url;
}

describe.each(vendors)('%s timeouts', (name, make, firstChunk) => {
  it('ends a call to a server that accepts and never answers with a retryable LOUSHO_PROVIDER_TIMEOUT', async () => {
    const url = await server(() => {});
    const error = await rejection(make(url, { requestTimeoutMs: 300 }).generate(request()));
    expect(error).toMatchObject({
      code: 'LOUSHO_PROVIDER_TIMEOUT',
      isRetryable: true,
      details: { provider: name, limit: 'requestTimeoutMs', ms: 300 },
    });
    expect((error as Error).message).toMatch(/requestTimeoutMs \(300 ms\)/);
  });

  it('ends a streamed reply that stops sending chunks with the stream-idle limit', async () => {
    const url = await server((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      firstChunk(res);
    });
    const error = await rejection(drain(make(url, { streamIdleTimeoutMs: 300 })));
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_TIMEOUT', details: { limit: 'streamIdleTimeoutMs' } });
  });

  it('ends a stream that never ends, chunks still coming, with the request limit', async () => {
    const url = await server((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      firstChunk(res);
      const timer = setInterval(() => res.write(': keep-alive\n\n'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const error = await rejection(drain(make(url, { requestTimeoutMs: 400, streamIdleTimeoutMs: 10_000 })));
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_TIMEOUT', details: { limit: 'requestTimeoutMs' } });
  });

  it('still settles at once on the abort signal, long before any limit', async () => {
    const url = await server(() => {});
    const controller = new AbortController();
    const call = make(url, {}).generate(request(controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await rejection(call)).toMatchObject({ code: 'LOUSHO_ABORTED' });
  });

  it('refuses a timeout that is not a positive number, naming the option', () => {
    expect(() => make('http://127.0.0.1:1', { requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
  });
});
