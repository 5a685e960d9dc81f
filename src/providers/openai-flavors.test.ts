/**
 * The same contract, provider by provider: every vendor that speaks the chat-completions
 * wire format (OpenAI, OpenRouter, Ollama's /v1, LM Studio's /v1, any compatible server)
 * through the real openai client and a loopback server, with that vendor's own error bodies.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createLMStudio, createOllama, createOpenAI, createOpenRouter } from './builtin.js';
import { createOpenAICompatible } from './openai-compatible.js';

const quick = { maxRetries: 0 };

interface Flavor {
  vendor: string;
  model: string;
  make(server: LoopbackServer, retry?: { maxRetries: number; initialDelayMs?: number }): LLMProvider;
  /** The vendor's own body for a request over its window (status, body). */
  overflow: [number, unknown];
  /** The vendor's own 401 body, when it has one. */
  auth: unknown;
}

const FLAVORS: Flavor[] = [
  {
    vendor: 'OpenAI',
    model: 'gpt-4o',
    make: (s, retry = quick) => createOpenAI({ baseURL: `${s.url}/v1`, apiKey: 'test', retry })('gpt-4o'),
    overflow: [
      400,
      {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130521 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    ],
    auth: {
      error: {
        message: 'Incorrect API key provided: test.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
  },
  {
    vendor: 'OpenRouter',
    model: 'openai/gpt-4o-mini',
    make: (s, retry = quick) =>
      createOpenRouter({ baseURL: `${s.url}/v1`, apiKey: 'test', retry })('openai/gpt-4o-mini'),
    overflow: [
      400,
      {
        error: {
          message:
            'This endpoint\'s maximum context length is 128000 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
          code: 400,
          metadata: { provider_name: 'OpenAI' },
        },
      },
    ],
    auth: { error: { message: 'No auth credentials found', code: 401 } },
  },
  {
    vendor: 'Ollama',
    model: 'qwen3:8b',
    make: (s, retry = quick) => createOllama({ host: s.url, retry })('qwen3:8b'),
    overflow: [
      400,
      {
        error: {
          message:
            '{"error":{"code":400,"message":"request (26528 tokens) exceeds the available context size (16384 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":26528,"n_ctx":16384}}',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    ],
    auth: { error: { message: 'unauthorized', type: 'api_error', param: null, code: null } },
  },
  {
    vendor: 'LM Studio',
    model: 'qwen2.5-7b-instruct',
    make: (s, retry = quick) => createLMStudio({ baseURL: `${s.url}/v1`, retry })('qwen2.5-7b-instruct'),
    overflow: [
      400,
      {
        error:
          'Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
      },
    ],
    auth: { error: 'Unauthorized' },
  },
  {
    vendor: 'a compatible server',
    model: 'my-model',
    make: (s, retry = quick) => createOpenAICompatible({ baseURL: `${s.url}/v1`, apiKey: 'test', retry })('my-model'),
    overflow: [
      400,
      {
        error: {
          message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens.",
          type: 'BadRequestError',
          code: 400,
        },
      },
    ],
    auth: { error: { message: 'Invalid key', type: 'authentication_error', code: 401 } },
  },
];

const serve = useLoopbackServers();

const USAGE = {
  prompt_tokens: 42,
  completion_tokens: 7,
  total_tokens: 49,
  prompt_tokens_details: { cached_tokens: 32 },
};

/** A server that answers each chat request with the next reply: text, or a tool call. */
function replies(model: string, script: ({ text: string } | { call: { id: string; name: string; args: string } })[]) {
  let n = 0;
  return (request: ReceivedRequest, response: ServerResponse) => {
    // Local servers are also asked for their context window (/api/...): not known here.
    if (request.path !== '/v1/chat/completions') return sendJson(response, 404, { error: 'not found' });
    const reply = script[Math.min(n++, script.length - 1)] as (typeof script)[number];
    const streamed = (request.body as { stream?: boolean }).stream === true;
    const message =
      'text' in reply
        ? { role: 'assistant', content: reply.text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: reply.call.id, type: 'function', function: { name: reply.call.name, arguments: reply.call.args } },
            ],
          };
    const finish = 'text' in reply ? 'stop' : 'tool_calls';
    if (!streamed) {
      return sendJson(response, 200, {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage: USAGE,
      });
    }
    const chunk = (delta: unknown, finishReason: string | null) => ({
      id: `chatcmpl-${n}`,
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    });
    const deltas =
      'text' in reply
        ? reply.text.split(/(?<= )/).map((t) => chunk({ content: t }, null))
        : [
            chunk(
              {
                tool_calls: [
                  { index: 0, id: reply.call.id, type: 'function', function: { name: reply.call.name, arguments: '' } },
                ],
              },
              null,
            ),
            chunk({ tool_calls: [{ index: 0, function: { arguments: reply.call.args } }] }, null),
          ];
    return sendSse(response, [
      ...deltas.map((data) => ({ data })),
      { data: chunk({}, finish) },
      { data: { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model, choices: [], usage: USAGE } },
      '[DONE]',
    ]);
  };
}

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hello' }] });

describe.each(FLAVORS)('$vendor', (flavor) => {
  it('answers a plain reply with text, finish reason and usage (cached tokens included)', async () => {
    const server = await serve(replies(flavor.model, [{ text: 'Hello there.' }]));
    const response = await flavor.make(server).generate(ask(flavor.model));
    expect(response).toMatchObject({ text: 'Hello there.', finishReason: 'stop', toolCalls: [] });
    expect(response.usage).toEqual({ inputTokens: 42, outputTokens: 7, cachedInputTokens: 32 });
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('streams a reply as text deltas and one finish part with usage', async () => {
    const server = await serve(replies(flavor.model, [{ text: 'one two three' }]));
    const parts: ModelStreamPart[] = [];
    for await (const part of flavor.make(server).stream(ask(flavor.model))) parts.push(part);
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => (p.type === 'text-delta' ? p.text : ''))
        .join(''),
    ).toBe('one two three');
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 42, outputTokens: 7 },
    });
  });

  it.each(['send', 'stream'] as const)('runs a tool-call round trip inside an agent (%s)', async (how) => {
    const server = await serve(
      replies(flavor.model, [
        { call: { id: 'call_1', name: 'add', args: '{"a":2,"b":3}' } },
        { text: 'The sum is 5.' },
      ]),
    );
    const agent = createAgent({
      provider: flavor.make(server),
      tools: [
        {
          name: 'add',
          description: 'Add two numbers',
          parameters: {
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
            required: ['a', 'b'],
          },
          execute: ({ a, b }: Record<string, unknown>) => Number(a) + Number(b),
        },
      ],
    });
    const result = how === 'send' ? await agent.send('2+3?') : await agent.stream('2+3?').result;
    expect(result.text).toBe('The sum is 5.');
    expect(result.usage.inputTokens).toBe(84);
    const chats = server.requests.filter((r) => r.path === '/v1/chat/completions');
    const second = chats[1]?.body as {
      messages: { role: string; tool_call_id?: string; content?: unknown }[];
    };
    expect(second.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '5' });
  });

  it("maps the vendor's own overflow body to LOUSHO_CONTEXT_OVERFLOW with the limit it states", async () => {
    const [status, body] = flavor.overflow;
    const server = await serve((_r, response) => sendJson(response, status, body));
    const error = await rejection(flavor.make(server).generate(ask(flavor.model)));
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(error.details?.limit).toBeGreaterThan(0);
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
    const error = await rejection(flavor.make(limited).generate(ask(flavor.model)));
    expect(error).toMatchObject({ code: 'LOUSHO_RATE_LIMITED', isRetryable: true });
    expect(error.details?.retryAfterMs).toBe(2_000);

    let n = 0;
    const flaky = await serve((request, response) =>
      n++ === 0
        ? sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '0' })
        : replies(flavor.model, [{ text: 'ok' }])(request, response),
    );
    const response = await flavor.make(flaky, { maxRetries: 2, initialDelayMs: 1 }).generate(ask(flavor.model));
    expect(response.text).toBe('ok');
    expect(flaky.requests).toHaveLength(2);
  });

  it('maps 401 to LOUSHO_AUTHENTICATION_FAILED and 500 to a retryable LOUSHO_PROVIDER_FAILED', async () => {
    const denied = await serve((_r, response) => sendJson(response, 401, flavor.auth));
    expect((await rejection(flavor.make(denied).generate(ask(flavor.model)))).code).toBe(
      'LOUSHO_AUTHENTICATION_FAILED',
    );
    const broken = await serve((_r, response) => sendJson(response, 500, { error: { message: 'internal error' } }));
    const error = await rejection(
      flavor.make(broken, { maxRetries: 1, initialDelayMs: 1 }).generate(ask(flavor.model)),
    );
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED', isRetryable: true });
    expect(broken.requests).toHaveLength(2);
  });

  it('stops a stream when its signal aborts in the middle', async () => {
    const server = await serve((_r, response) =>
      sendSse(
        response,
        Array.from({ length: 20 }, (_, i) => ({
          data: {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 1,
            model: flavor.model,
            choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }],
          },
        })),
        { delayMs: 100 },
      ),
    );
    const controller = new AbortController();
    const parts: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of flavor.make(server).stream({ ...ask(flavor.model), abortSignal: controller.signal })) {
          if (part.type === 'text-delta') parts.push(part.text);
          if (parts.length === 1) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(parts).toHaveLength(1);
  });
});
