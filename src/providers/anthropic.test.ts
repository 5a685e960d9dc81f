import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import {
  type Handler,
  type LoopbackServer,
  type ReceivedRequest,
  sendJson,
  sendSse,
} from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createAnthropic } from './anthropic.js';
import { anthropicFinishReason } from './anthropic-finish-reason.js';

const MODEL = 'claude-opus-4-6';
const SNAPSHOT = 'claude-opus-4-6-20260205';
const serve = useLoopbackServers();

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A server that answers each request with the next handler (the last one repeats). */
async function serveEach(...handlers: Handler[]): Promise<LoopbackServer> {
  let n = 0;
  return serve((request, response) => {
    const handler = handlers[Math.min(n++, handlers.length - 1)];
    return handler?.(request, response);
  });
}

function provider(server: LoopbackServer, options: Parameters<typeof createAnthropic>[0] = {}) {
  return createAnthropic({ baseURL: server.url, apiKey: 'test', ...options })(MODEL);
}

/** A Messages API reply, as documented. */
function message(content: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: SNAPSHOT,
    content,
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    ...extra,
  };
}

const textReply =
  (text: string, extra: Record<string, unknown> = {}): Handler =>
  (_request, response) =>
    sendJson(response, 200, message([{ type: 'text', text }], extra));

const errorReply =
  (status: number, type: string, text: string, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    sendJson(response, status, { type: 'error', error: { type, message: text } }, headers);

/** The events of a streamed reply with text deltas, as documented (ping included). */
function textEvents(deltas: string[], usage: Record<string, number> = { input_tokens: 25, output_tokens: 1 }) {
  return [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
          type: 'message',
          role: 'assistant',
          content: [],
          model: SNAPSHOT,
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    },
    { event: 'ping', data: { type: 'ping' } },
    ...deltas.map((text) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 15 },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const failure = rejection;

const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: MODEL,
  messages: [{ role: 'user', content: text }],
  ...extra,
});

const bodyOf = (request: ReceivedRequest | undefined) => request?.body as Record<string, unknown>;

describe('createAnthropic: generate', () => {
  it('sends a Messages API request and reads a plain reply', async () => {
    const server = await serve(textReply('Hello! How can I help?'));
    const response = await provider(server).generate({
      model: MODEL,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi', metadata: { pinned: true, secret: 'never sent' } },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
    });
    expect(response).toEqual({
      text: 'Hello! How can I help?',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 6, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
      modelId: SNAPSHOT,
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['anthropic-version']).toEqual(expect.any(String));
    expect(`${request?.headers['x-api-key'] ?? ''} ${request?.headers.authorization ?? ''}`).toContain('test');
    expect(request?.body).toEqual({
      model: MODEL,
      max_tokens: 4096,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
    expect(JSON.stringify(request?.body)).not.toContain('never sent');
  });

  it('takes max_tokens from the request, else maxOutputTokens, else 4096; sends temperature and extra headers', async () => {
    const server = await serve(textReply('ok'));
    await provider(server, { maxOutputTokens: 1000, headers: { 'x-team': 'agents' } }).generate(
      ask('a', { maxOutputTokens: 50, temperature: 0.2 }),
    );
    await provider(server, { maxOutputTokens: 1000 }).generate(ask('b'));
    await provider(server).generate(ask('c'));
    expect(server.requests.map((r) => bodyOf(r).max_tokens)).toEqual([50, 1000, 4096]);
    expect(bodyOf(server.requests[0]).temperature).toBe(0.2);
    expect(server.requests[0]?.headers['x-team']).toBe('agents');
  });

  it('converts a whole transcript: system, images, tool calls, grouped tool results, merged turns', async () => {
    const server = await serve(textReply('done'));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', image: 'data:image/jpeg;base64,/9j/AAAA' },
          { type: 'image', image: png },
          { type: 'image', image: 'https://example.com/cat.webp' },
          { type: 'image', image: new URL('https://example.com/dog.gif') },
        ],
      },
      { role: 'user', content: 'And read two files.' },
      {
        role: 'assistant',
        content: 'Reading.',
        toolCalls: [
          { id: 'toolu_1', name: 'read', arguments: { path: 'a.ts' } },
          { id: 'toolu_2', name: 'read', arguments: { path: 'b.ts' } },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'read', content: 'export const a = 1;' },
      { role: 'tool', toolCallId: 'toolu_2', toolName: 'read', content: 'Error: no such file', isError: true },
      { role: 'system', content: 'Half of the budget is used.', metadata: { note: 'not sent' } },
      { role: 'assistant', content: [{ type: 'text', text: 'a.ts exports a.' }] },
    ];
    await provider(server, { promptCache: false }).generate({
      model: MODEL,
      messages,
      outputSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    });
    const body = bodyOf(server.requests[0]);
    expect(body.system).toBe('Be brief.');
    expect(body.output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false },
      },
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/AAAA' } },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: Buffer.from(png).toString('base64') },
          },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.webp' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/dog.gif' } },
          { type: 'text', text: 'And read two files.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;', is_error: false },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error: no such file', is_error: true },
          { type: 'text', text: '[system] Half of the budget is used.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'a.ts exports a.' }] },
    ]);
    expect(JSON.stringify(body)).not.toContain('not sent');
  });

  it('sends images of tool results inside the tool_result block', async () => {
    const server = await serve(textReply('a chart'));
    await provider(server, { promptCache: false }).generate({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Screenshot it.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_9', name: 'screenshot', arguments: {} }] },
        {
          role: 'tool',
          toolCallId: 'toolu_9',
          content: [
            { type: 'text', text: 'The page:' },
            { type: 'image', image: 'iVBORw0KGgoAAAA', mediaType: 'image/png' },
          ],
        },
      ],
    });
    expect(bodyOf(server.requests[0]).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Screenshot it.' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'screenshot', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_9',
            content: [
              { type: 'text', text: 'The page:' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAA' } },
            ],
            is_error: false,
          },
        ],
      },
    ]);
  });

  it('refuses an image type the API does not take before sending anything', async () => {
    const server = await serve(textReply('never'));
    const error = await failure(
      provider(server).generate({
        model: MODEL,
        messages: [{ role: 'user', content: [{ type: 'image', image: 'PHN2Zz4=', mediaType: 'image/svg+xml' }] }],
      }),
    );
    expect(error.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(error.message).toContain('image/svg+xml');
    expect(server.requests).toHaveLength(0);
  });

  it('reads tool calls and the finish reason of a tool_use reply', async () => {
    const server = await serve((_r, response) =>
      sendJson(
        response,
        200,
        message(
          [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
          ],
          { stop_reason: 'tool_use' },
        ),
      ),
    );
    const response = await provider(server).generate(ask('Weather in Paris?'));
    expect(response.text).toBe('Let me check.');
    expect(response.finishReason).toBe('tool-calls');
    expect(response.toolCalls).toEqual([
      { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
  });

  it('maps every stop reason', () => {
    expect(
      ['end_turn', 'stop_sequence', 'tool_use', 'max_tokens', 'refusal', 'pause_turn', null].map(anthropicFinishReason),
    ).toEqual(['stop', 'stop', 'tool-calls', 'length', 'content-filter', 'other', 'other']);
  });

  it('reports usage with the cache fields: input counts cache reads and writes, cached is the reads', async () => {
    const server = await serve(
      textReply('ok', {
        usage: { input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 50 },
      }),
    );
    const { usage } = await provider(server).generate(ask('hi'));
    expect(usage).toEqual({ inputTokens: 1210, cachedInputTokens: 1000, cacheWriteInputTokens: 200, outputTokens: 50 });
  });

  it('reports unknown usage as undefined, never 0', async () => {
    const server = await serve(textReply('ok', { usage: {} }));
    const { usage } = await provider(server).generate(ask('hi'));
    expect(usage).toEqual({ inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined });
  });

  it('streams a call whose max_tokens the SDK would not send without streaming, and returns the whole reply', async () => {
    const server = await serve((_r, response) => sendSse(response, textEvents(['Long ', 'answer.'])));
    const response = await provider(server).generate(ask('Write a lot.', { maxOutputTokens: 64_000 }));
    expect(bodyOf(server.requests[0])).toMatchObject({ stream: true, max_tokens: 64_000 });
    expect(response).toEqual({
      text: 'Long answer.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 25, outputTokens: 15, cachedInputTokens: undefined },
      modelId: SNAPSHOT,
    });
  });
});

describe('createAnthropic: stream', () => {
  it('yields the text deltas, then exactly one finish part', async () => {
    const server = await serve((_r, response) => sendSse(response, textEvents(['Hello', ', ', 'world!'])));
    const parts = await collect(provider(server).stream(ask('Greet me.')));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', ' },
      { type: 'text-delta', text: 'world!' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 25, outputTokens: 15, cachedInputTokens: undefined },
        modelId: SNAPSHOT,
      },
    ]);
    expect(bodyOf(server.requests[0])).toMatchObject({ stream: true, model: MODEL, max_tokens: 4096 });
  });

  it('assembles a tool call from input_json_delta pieces and reports cache usage', async () => {
    const events = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_014p7gG3wDgGV9EUtLvnow3U',
            type: 'message',
            role: 'assistant',
            model: SNAPSHOT,
            stop_sequence: null,
            usage: {
              input_tokens: 472,
              cache_read_input_tokens: 2048,
              cache_creation_input_tokens: 0,
              output_tokens: 2,
            },
            content: [],
            stop_reason: null,
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} },
        },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"city": "San' },
        },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: ' Francisco"}' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 89 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const server = await serve((_r, response) => sendSse(response, events));
    const parts = await collect(provider(server).stream(ask('Weather in SF?')));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      {
        type: 'tool-call',
        toolCall: { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: { city: 'San Francisco' } },
      },
      {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens: 2520, outputTokens: 89, cachedInputTokens: 2048, cacheWriteInputTokens: 0 },
        modelId: SNAPSHOT,
      },
    ]);
  });

  it('turns an error frame inside a 200 stream into a retryable LoushoError, and retries it before any part', async () => {
    const overloaded = {
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    };
    const [start] = textEvents([]);
    const server = await serveEach(
      (_r, response) => sendSse(response, [start ?? '', overloaded]),
      (_r, response) => sendSse(response, textEvents(['fine'])),
    );
    const parts = await collect(provider(server, { retry: { maxRetries: 1, initialDelayMs: 1 } }).stream(ask('hi')));
    expect(server.requests).toHaveLength(2);
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'fine' });

    const once = await serve((_r, response) => sendSse(response, [start ?? '', overloaded]));
    const error = await failure(collect(provider(once, { retry: { maxRetries: 0 } }).stream(ask('hi'))));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain('Overloaded');
    expect(error.details).toMatchObject({ provider: 'anthropic', model: MODEL, status: 529 });
  });

  it('does not retry a stream that fails after it has yielded', async () => {
    const events = textEvents(['partial ']).slice(0, 4);
    const server = await serve((_r, response) =>
      sendSse(response, [
        ...events,
        { event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } },
      ]),
    );
    const seen: ModelStreamPart[] = [];
    const error = await failure(
      (async () => {
        for await (const part of provider(server, { retry: { maxRetries: 2, initialDelayMs: 1 } }).stream(ask('hi')))
          seen.push(part);
      })(),
    );
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial ' }]);
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(server.requests).toHaveLength(1);
  });

  it('fails a stream that ends before message_stop', async () => {
    const server = await serve((_r, response) => sendSse(response, textEvents(['cut']).slice(0, 4)));
    const error = await failure(collect(provider(server).stream(ask('hi'))));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.message).toContain('message_stop');
  });

  it('stops quickly with LOUSHO_ABORTED when aborted in the middle of a stream', async () => {
    const deltas = Array.from({ length: 50 }, (_, i) => `word${i} `);
    const server = await serve((_r, response) => sendSse(response, textEvents(deltas), { delayMs: 100 }));
    const controller = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    const error = await failure(
      (async () => {
        for await (const part of provider(server).stream(ask('Talk.', { abortSignal: controller.signal }))) {
          if (part.type === 'text-delta') seen.push(part.text);
          if (seen.length === 2 && abortedAt === 0) {
            abortedAt = Date.now();
            controller.abort();
          }
        }
      })(),
    );
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(seen.length).toBeLessThan(5);
  });

  it('stops with LOUSHO_ABORTED when a generate call is aborted while waiting', async () => {
    const server = await serve((_r, response) => {
      setTimeout(() => {
        if (!response.destroyed) sendJson(response, 200, message([{ type: 'text', text: 'late' }]));
      }, 5_000);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // Without the abort the server would answer after 5 s and the call would resolve.
    const error = await failure(provider(server).generate(ask('hi', { abortSignal: controller.signal })));
    expect(error.code).toBe('LOUSHO_ABORTED');
  });
});

describe('createAnthropic: errors', () => {
  it('maps "prompt is too long" to LOUSHO_CONTEXT_OVERFLOW with the requested size and the limit', async () => {
    const server = await serve(
      errorReply(400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
    );
    const error = await failure(provider(server).generate(ask('a very long prompt')));
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(error.details).toMatchObject({
      provider: 'anthropic',
      model: MODEL,
      status: 400,
      requested: 208310,
      limit: 200000,
    });
    expect(error.isRetryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('maps a too-large image to LOUSHO_MEDIA_TOO_LARGE with the message index', async () => {
    const server = await serve(
      errorReply(
        400,
        'invalid_request_error',
        'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 5316852 bytes > 5242880 bytes',
      ),
    );
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
        ],
      },
    ];
    const error = await failure(provider(server).generate({ model: MODEL, messages }));
    expect(error.code).toBe('LOUSHO_MEDIA_TOO_LARGE');
    expect(error.details).toMatchObject({ messageIndex: 0, status: 400 });
  });

  it('points a media error at the transcript message when the system prompt and merging shift the indexes', async () => {
    const server = await serve(
      errorReply(
        400,
        'invalid_request_error',
        'messages.2.content.1.image.source.base64: image exceeds 5 MB maximum: 5316852 bytes > 5242880 bytes',
      ),
    );
    const messages: Message[] = [
      { role: 'system', content: 'Describe images.' },
      { role: 'user', content: 'First, a question.' },
      { role: 'assistant', content: 'Go on.' },
      { role: 'user', content: 'Here:' },
      { role: 'user', content: [{ type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
    ];
    const error = await failure(provider(server).generate({ model: MODEL, messages }));
    expect(error.code).toBe('LOUSHO_MEDIA_TOO_LARGE');
    expect(error.details).toMatchObject({ messageIndex: 4, providerMessageIndex: 2 });
  });

  it('maps 429 rate_limit_error to LOUSHO_RATE_LIMITED with retry-after in milliseconds', async () => {
    const server = await serve(
      errorReply(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', {
        'retry-after': '2',
      }),
    );
    const error = await failure(provider(server, { retry: { maxRetries: 0 } }).generate(ask('hi')));
    expect(error.code).toBe('LOUSHO_RATE_LIMITED');
    expect(error.isRetryable).toBe(true);
    expect(error.details).toMatchObject({ retryAfterMs: 2000, status: 429 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 429 and succeeds on the second request', async () => {
    const server = await serveEach(
      errorReply(429, 'rate_limit_error', 'Rate limited', { 'retry-after': '0' }),
      textReply('made it'),
    );
    const response = await provider(server, { retry: { maxRetries: 1, initialDelayMs: 1 } }).generate(ask('hi'));
    expect(response.text).toBe('made it');
    expect(server.requests).toHaveLength(2);
  });

  it('maps 401 authentication_error to LOUSHO_AUTHENTICATION_FAILED naming ANTHROPIC_API_KEY, without retrying', async () => {
    const server = await serve(errorReply(401, 'authentication_error', 'invalid x-api-key'));
    const error = await failure(provider(server, { retry: { maxRetries: 2, initialDelayMs: 1 } }).generate(ask('hi')));
    expect(error.code).toBe('LOUSHO_AUTHENTICATION_FAILED');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(error.message).toContain('invalid x-api-key');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [529, 'overloaded_error', 'Overloaded'],
    [500, 'api_error', 'Internal server error'],
  ])(
    'maps %i %s to a retryable LOUSHO_PROVIDER_FAILED and retries it a bounded number of times',
    async (status, type, text) => {
      const server = await serve(errorReply(status, type, text));
      const error = await failure(
        provider(server, { retry: { maxRetries: 2, initialDelayMs: 1 } }).generate(ask('hi')),
      );
      expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
      expect(error.isRetryable).toBe(true);
      expect(error.details).toMatchObject({ status });
      expect(error.message).toContain(text);
      expect(server.requests).toHaveLength(3);
    },
  );

  it('keeps the text of an error body that is not JSON (a proxy page)', async () => {
    const server = await serve((_r, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>502 Bad Gateway</body></html>');
    });
    const error = await failure(provider(server, { retry: { maxRetries: 0 } }).generate(ask('hi')));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain('Bad Gateway');
  });

  it('retries the stream request on a 529 too', async () => {
    const server = await serve(errorReply(529, 'overloaded_error', 'Overloaded'));
    const error = await failure(
      collect(provider(server, { retry: { maxRetries: 2, initialDelayMs: 1 } }).stream(ask('hi'))),
    );
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(server.requests).toHaveLength(3);
  });

  it('maps a connection failure to a retryable LOUSHO_PROVIDER_FAILED without status', async () => {
    const server = await serve(textReply('never'));
    const url = server.url;
    await server.close();
    const error = await failure(
      createAnthropic({ baseURL: url, apiKey: 'test', retry: { maxRetries: 0 } })(MODEL).generate(ask('hi')),
    );
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.isRetryable).toBe(true);
    expect(error.details?.status).toBeUndefined();
  });

  it('throws LOUSHO_API_KEY_MISSING naming ANTHROPIC_API_KEY at call time, not at creation', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    const server = await serve(textReply('never'));
    const model = createAnthropic({ baseURL: server.url })(MODEL);
    expect(model.provider).toBe('anthropic');
    expect(model.modelId).toBe(MODEL);
    const error = await failure(model.generate(ask('hi')));
    expect(error.code).toBe('LOUSHO_API_KEY_MISSING');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    const streamed = await failure(collect(model.stream(ask('hi'))));
    expect(streamed.code).toBe('LOUSHO_API_KEY_MISSING');
    expect(server.requests).toHaveLength(0);
  });

  it('reads the key and the base URL from the environment', async () => {
    const server = await serve(textReply('from env'));
    vi.stubEnv('ANTHROPIC_API_KEY', 'env-key');
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
    const response = await createAnthropic()(MODEL).generate(ask('hi'));
    expect(response.text).toBe('from env');
    const headers = server.requests[0]?.headers;
    expect(`${headers?.['x-api-key'] ?? ''} ${headers?.authorization ?? ''}`).toContain('env-key');
  });
});

describe('createAnthropic: in an agent run', () => {
  // The SDK warns on every call that claude-sonnet-4-5 is deprecated; keep the test output quiet.
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const getWeather = tool({
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => `Sunny in ${String(city)}, 21°C`,
  });

  it('runs a tool-call round trip: the second request carries the tool_result', async () => {
    const server = await serveEach(
      (_r, response) =>
        sendJson(
          response,
          200,
          message(
            [
              { type: 'text', text: 'I will look it up.' },
              { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
            ],
            { stop_reason: 'tool_use' },
          ),
        ),
      textReply('It is sunny in Paris.'),
    );
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'test', promptCache: false })('claude-sonnet-4-5'),
      instructions: 'Use tools.',
      tools: [getWeather],
    });
    const result = await agent.send('Weather in Paris?');
    expect(result.text).toBe('It is sunny in Paris.');
    expect(server.requests).toHaveLength(2);
    const second = bodyOf(server.requests[1]);
    expect(second.system).toBe('Use tools.');
    expect(second.tools).toEqual([
      {
        name: 'get_weather',
        description: 'The weather of a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ]);
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I will look it up.' },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny in Paris, 21°C', is_error: false }],
      },
    ]);
    expect(result.usage.inputTokens).toBe(24);
  });

  it('runs a streamed tool-call round trip through agent.stream()', async () => {
    const toolUse = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_a',
            type: 'message',
            role: 'assistant',
            model: SNAPSHOT,
            content: [],
            stop_reason: null,
            usage: { input_tokens: 30, output_tokens: 1 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_s', name: 'get_weather', input: {} },
        },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"city":"Oslo"}' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const server = await serveEach(
      (_r, response) => sendSse(response, toolUse),
      (_r, response) => sendSse(response, textEvents(['Sunny ', 'in Oslo.'])),
    );
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'test' })('claude-sonnet-4-5'),
      tools: [getWeather],
    });
    const run = agent.stream('Weather in Oslo?');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(result.text).toBe('Sunny in Oslo.');
    expect(events.filter((e) => e.type === 'text.delta').map((e) => (e.type === 'text.delta' ? e.text : ''))).toEqual([
      'Sunny ',
      'in Oslo.',
    ]);
    const second = bodyOf(server.requests[1]);
    expect(second.stream).toBe(true);
    expect((second.messages as unknown[])[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_s',
          content: 'Sunny in Oslo, 21°C',
          is_error: false,
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });
});

describe('createAnthropic: the SDK', () => {
  it('is loaded on the first call, and its absence is LOUSHO_DEPENDENCY_MISSING', async () => {
    vi.resetModules();
    vi.doMock('@anthropic-ai/sdk', () => {
      throw new Error("Cannot find package '@anthropic-ai/sdk'");
    });
    try {
      const fresh = await import('./anthropic.js');
      const model = fresh.createAnthropic({ apiKey: 'test', baseURL: 'http://127.0.0.1:9' })(MODEL);
      const error = await failure(model.generate(ask('hi')));
      expect(error.code).toBe('LOUSHO_DEPENDENCY_MISSING');
      expect(error.message).toBe(
        'The anthropic provider needs the @anthropic-ai/sdk package: npm install @anthropic-ai/sdk',
      );
    } finally {
      vi.doUnmock('@anthropic-ai/sdk');
      vi.resetModules();
    }
  });
});
