/**
 * The OpenAI chat-completions providers (createOpenAICompatible, and OpenAI, OpenRouter,
 * Ollama's /v1 and LM Studio's /v1 built on it) driven through the real `openai` client
 * against a loopback server that speaks the documented wire format: JSON replies, SSE
 * streams of `chat.completion.chunk` objects, and each vendor's real error bodies.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { resetModelRegistry } from '../models/registry.js';
import { rejection } from '../test-support/errors.js';
import {
  type Handler,
  type LoopbackServer,
  type ReceivedRequest,
  sendJson,
  sendSse,
} from '../test-support/loopback-server.js';
import { closedPortUrl, isolateEnv, useLoopbackServers, within } from '../test-support/provider-setup.js';
import { createLMStudio, createOllama, createOpenAI, createOpenRouter } from './builtin.js';
import { createOpenAICompatible, type OpenAICompatibleOptions } from './openai-compatible.js';
import type { resolveProvider } from './resolve-provider.js';

// ---------------------------------------------------------------------------------------
// The wire format
// ---------------------------------------------------------------------------------------

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

interface WireMessage {
  role: string;
  content: unknown;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

/** A chat-completions request body as the server received it. */
interface ChatBody {
  model: string;
  messages: WireMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

/** One scripted reply of the server. */
interface Turn {
  content?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  finish?: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  /** null: no usage at all. */
  usage?: WireUsage | null;
  model?: string;
}

const SNAPSHOT = 'gpt-4o-2024-08-06';
const DEFAULT_USAGE: WireUsage = {
  prompt_tokens: 12,
  completion_tokens: 5,
  total_tokens: 17,
  prompt_tokens_details: { cached_tokens: 0 },
};

const bodyOf = (request: ReceivedRequest | undefined): ChatBody => request?.body as ChatBody;

function wireCalls(turn: Turn): WireToolCall[] | undefined {
  return turn.toolCalls?.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
}

/** A non-streamed reply: `{ id, object: 'chat.completion', model, choices, usage }`. */
function completion(turn: Turn) {
  const calls = wireCalls(turn);
  return {
    id: 'chatcmpl-9x1',
    object: 'chat.completion',
    created: 1_726_000_000,
    model: turn.model ?? SNAPSHOT,
    system_fingerprint: 'fp_test',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.content ?? null,
          refusal: null,
          ...(calls === undefined ? {} : { tool_calls: calls }),
        },
        logprobs: null,
        finish_reason: turn.finish ?? (calls === undefined ? 'stop' : 'tool_calls'),
      },
    ],
    ...(turn.usage === null ? {} : { usage: turn.usage ?? DEFAULT_USAGE }),
  };
}

function chunk(model: string, choices: unknown[], extra: Record<string, unknown> = {}) {
  return {
    data: {
      id: 'chatcmpl-9x2',
      object: 'chat.completion.chunk',
      created: 1_726_000_000,
      model,
      system_fingerprint: 'fp_test',
      choices,
      ...extra,
    },
  };
}

/** A delta chunk of choice 0. */
function delta(model: string, value: Record<string, unknown>, finish: string | null = null) {
  return chunk(model, [{ index: 0, delta: value, logprobs: null, finish_reason: finish }]);
}

/**
 * A streamed reply: a role chunk, the text in two deltas, each tool call over three chunks
 * (id and name, then the arguments in two halves), a finish chunk, a usage chunk with
 * `choices: []`, then `[DONE]`.
 */
function chunks(turn: Turn): ({ data: unknown } | string)[] {
  const model = turn.model ?? SNAPSHOT;
  const events: ({ data: unknown } | string)[] = [delta(model, { role: 'assistant', content: '', refusal: null })];
  const text = turn.content ?? '';
  if (text !== '') {
    const half = Math.ceil(text.length / 2);
    events.push(delta(model, { content: text.slice(0, half) }));
    if (text.length > half) events.push(delta(model, { content: text.slice(half) }));
  }
  turn.toolCalls?.forEach((call, index) => {
    const half = Math.ceil(call.arguments.length / 2);
    events.push(
      delta(model, {
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
      delta(model, { tool_calls: [{ index, function: { arguments: call.arguments.slice(0, half) } }] }),
      delta(model, { tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }),
    );
  });
  events.push(delta(model, {}, turn.finish ?? (turn.toolCalls === undefined ? 'stop' : 'tool_calls')));
  if (turn.usage !== null) events.push(chunk(model, [], { usage: turn.usage ?? DEFAULT_USAGE }));
  events.push('[DONE]');
  return events;
}

/** Answers one chat request with `turn`, as JSON or as SSE as the request asked. */
async function reply(request: ReceivedRequest, response: ServerResponse, turn: Turn): Promise<void> {
  if (bodyOf(request).stream === true) await sendSse(response, chunks(turn));
  else sendJson(response, 200, completion(turn));
}

/** A handler that answers the n-th chat request with turns[n] (the last one again after that). */
function scripted(turns: Turn[] | ((index: number, request: ReceivedRequest) => Turn)): Handler {
  let index = 0;
  return async (request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      sendJson(response, 404, { error: { message: `no route ${request.method} ${request.path}` } });
      return;
    }
    const n = index++;
    const turn = typeof turns === 'function' ? turns(n, request) : (turns[Math.min(n, turns.length - 1)] ?? {});
    await reply(request, response, turn);
  };
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

isolateEnv();
const serve = useLoopbackServers();

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
});

function compatible(server: LoopbackServer, options: OpenAICompatibleOptions = {}) {
  return createOpenAICompatible({ baseURL: `${server.url}/v1`, apiKey: 'test', ...options });
}

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

type Mode = 'generate' | 'stream';
const MODES: Mode[] = ['generate', 'stream'];

/** Calls the provider one way or the other; resolves to the parts of a stream, or the response. */
async function call(provider: LLMProvider, request: ModelRequest, mode: Mode): Promise<unknown> {
  return mode === 'generate' ? provider.generate(request) : collect(provider.stream(request));
}

function ask(model: string, text = 'Hello'): ModelRequest {
  return { model, messages: [{ role: 'user', content: text }] };
}

/** resolveProvider from a fresh module graph, so that each test's environment variables are read anew. */
async function freshResolveProvider(): Promise<typeof resolveProvider> {
  vi.resetModules();
  const module = await import('./resolve-provider.js');
  return module.resolveProvider;
}

const weatherTool: Tool<{ city: string }, unknown> = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
};

// ---------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------

/** A transcript with every kind of message, each carrying metadata that must never be sent. */
const TRANSCRIPT: Message[] = [
  { role: 'system', content: 'Be brief.', metadata: { pinned: true } },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture, and what is the weather in Paris?' },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png', detail: 'low' },
    ],
    metadata: { source: 'upload' },
  },
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
    metadata: { step: 1 },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: 'sunny, 21°C', metadata: { ms: 12 } },
  { role: 'assistant', content: 'A cat. It is sunny in Paris.', metadata: { step: 2 } },
  { role: 'user', content: 'Answer as JSON.', metadata: { secret: 'never sent' } },
];

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: { animal: { type: 'string' }, sky: { type: 'string' } },
  required: ['animal', 'sky'],
  additionalProperties: false,
};

const EXPECTED_MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture, and what is the weather in Paris?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
    ],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21°C' },
  { role: 'assistant', content: 'A cat. It is sunny in Paris.' },
  { role: 'user', content: 'Answer as JSON.' },
];

interface Vendor {
  name: string;
  model: string;
  make: (server: LoopbackServer) => LLMProvider;
  limitField: 'max_tokens' | 'max_completion_tokens';
}

const VENDORS: Vendor[] = [
  {
    name: 'openai-compatible',
    model: 'my-model',
    make: (s) => compatible(s)('my-model'),
    limitField: 'max_tokens',
  },
  {
    name: 'openai',
    model: 'gpt-4o',
    make: (s) => createOpenAI({ baseURL: `${s.url}/v1`, apiKey: 'test' })('gpt-4o'),
    limitField: 'max_completion_tokens',
  },
  {
    name: 'openrouter',
    model: 'openai/gpt-4o-mini',
    make: (s) => createOpenRouter({ baseURL: `${s.url}/v1`, apiKey: 'test' })('openai/gpt-4o-mini'),
    limitField: 'max_tokens',
  },
  {
    name: 'ollama',
    model: 'qwen3:8b',
    make: (s) => createOllama({ host: s.url })('qwen3:8b'),
    limitField: 'max_tokens',
  },
  {
    name: 'lmstudio',
    model: 'qwen2.5-7b-instruct',
    make: (s) => createLMStudio({ baseURL: `${s.url}/v1` })('qwen2.5-7b-instruct'),
    limitField: 'max_tokens',
  },
];

describe('the request', () => {
  it.each(VENDORS)(
    '$name: sends model, messages (tool calls and results), tools, $limitField and response_format; never metadata',
    async (vendor) => {
      const server = await serve(scripted([{ content: '{"animal":"cat","sky":"sunny"}' }]));
      const provider = vendor.make(server);
      expect(provider.provider).toBe(vendor.name);
      expect(provider.modelId).toBe(vendor.model);

      const response = await provider.generate({
        model: vendor.model,
        messages: TRANSCRIPT,
        tools: [
          {
            name: 'get_weather',
            description: 'The weather in a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
          { name: 'now', parameters: { type: 'object', properties: {} } },
        ],
        outputSchema: OUTPUT_SCHEMA,
        maxOutputTokens: 256,
        temperature: 0.2,
      });

      expect(response.text).toBe('{"animal":"cat","sky":"sunny"}');
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request?.method).toBe('POST');
      expect(request?.path).toBe('/v1/chat/completions');
      expect(request?.headers['content-type']).toMatch(/application\/json/);
      expect(bodyOf(request)).toEqual({
        model: vendor.model,
        messages: EXPECTED_MESSAGES,
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'The weather in a city.',
              // Objects go closed: the model may add no argument the schema does not name.
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' } },
                required: ['city'],
                additionalProperties: false,
              },
            },
          },
          {
            type: 'function',
            function: { name: 'now', parameters: { type: 'object', properties: {}, additionalProperties: false } },
          },
        ],
        [vendor.limitField]: 256,
        temperature: 0.2,
        response_format: { type: 'json_schema', json_schema: { name: 'output', schema: OUTPUT_SCHEMA, strict: true } },
      });
      const raw = JSON.stringify(request?.body);
      expect(raw).not.toContain('metadata');
      expect(raw).not.toContain('never sent');
      expect(raw).not.toContain('pinned');
    },
  );

  it('sends only model and messages when the request has no tools, limit, temperature or schema', async () => {
    const server = await serve(scripted([{ content: 'Hi!' }]));
    await compatible(server)('my-model').generate({ ...ask('my-model'), tools: [] });
    expect(bodyOf(server.requests[0])).toEqual({ model: 'my-model', messages: [{ role: 'user', content: 'Hello' }] });
  });

  it('sends the API key as a bearer token, and OpenRouter its X-Title header', async () => {
    const server = await serve(scripted([{ content: 'Hi!' }]));
    await createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-openai' })('gpt-4o').generate(ask('gpt-4o'));
    await createOpenRouter({ baseURL: `${server.url}/v1`, apiKey: 'sk-or-v1-abc' })('openai/gpt-4o').generate(
      ask('openai/gpt-4o'),
    );
    await compatible(server, { apiKey: 'k', headers: { 'x-team': 'infra' } })('m').generate(ask('m'));
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-openai');
    expect(server.requests[1]?.headers.authorization).toBe('Bearer sk-or-v1-abc');
    expect(server.requests[1]?.headers['x-title']).toBe('@lousho/build-ai-agent');
    expect(server.requests[2]?.headers['x-team']).toBe('infra');
  });

  it('turns images in tool results into a note (chat-completions tool messages carry text only)', async () => {
    const server = await serve(scripted([{ content: 'ok' }]));
    await compatible(server)('m').generate({
      model: 'm',
      messages: [
        { role: 'user', content: 'Take a screenshot.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'screenshot', arguments: {} }] },
        {
          role: 'tool',
          toolCallId: 'c1',
          content: [
            { type: 'text', text: 'Here it is.' },
            { type: 'image', image: 'iVBORw0KGgo=' },
          ],
        },
      ],
    });
    const tool = bodyOf(server.requests[0]).messages[2];
    expect(tool?.role).toBe('tool');
    expect(tool?.tool_call_id).toBe('c1');
    expect(tool?.content).toBe('Here it is.\n[image omitted: OpenAI chat tool messages carry text only]');
  });
});

// ---------------------------------------------------------------------------------------
// Replies
// ---------------------------------------------------------------------------------------

describe('a plain reply', () => {
  it('resolves to the text, no tool calls, the finish reason, usage and the answering model', async () => {
    const server = await serve(
      scripted([
        {
          content: 'Hello there!',
          usage: {
            prompt_tokens: 9,
            completion_tokens: 3,
            total_tokens: 12,
            prompt_tokens_details: { cached_tokens: 0 },
          },
        },
      ]),
    );
    const response = await compatible(server)('gpt-4o').generate(ask('gpt-4o'));
    expect(response).toEqual({
      text: 'Hello there!',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 0 },
      modelId: SNAPSHOT,
    });
  });

  it('parses tool calls; arguments that are not JSON are kept as text', async () => {
    const server = await serve(
      scripted([
        {
          toolCalls: [
            { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
            { id: 'call_b', name: 'now', arguments: '' },
            { id: 'call_c', name: 'get_weather', arguments: '{"city": "Par' },
          ],
        },
      ]),
    );
    const response = await compatible(server)('gpt-4o').generate(ask('gpt-4o'));
    expect(response.text).toBe('');
    expect(response.finishReason).toBe('tool-calls');
    expect(response.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_b', name: 'now', arguments: {} },
      { id: 'call_c', name: 'get_weather', arguments: '{"city": "Par' },
    ]);
  });
});

describe('a streamed reply', () => {
  it('yields the text deltas, then one finish part with usage; asks for usage with stream_options', async () => {
    const server = await serve(
      scripted([
        {
          content: 'Hello there!',
          usage: {
            prompt_tokens: 9,
            completion_tokens: 3,
            total_tokens: 12,
            prompt_tokens_details: { cached_tokens: 4 },
          },
        },
      ]),
    );
    const parts = await collect(compatible(server)('gpt-4o').stream(ask('gpt-4o')));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hello ' },
      { type: 'text-delta', text: 'there!' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 4 },
        modelId: SNAPSHOT,
      },
    ]);
    const body = bodyOf(server.requests[0]);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.model).toBe('gpt-4o');
  });

  it('sends no stream_options when streamUsage is false (servers that reject it)', async () => {
    const server = await serve(scripted([{ content: 'Hi', usage: null }]));
    const parts = await collect(compatible(server, { streamUsage: false })('m').stream(ask('m')));
    expect(bodyOf(server.requests[0]).stream).toBe(true);
    expect(bodyOf(server.requests[0])).not.toHaveProperty('stream_options');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined },
      modelId: SNAPSHOT,
    });
  });

  it('yields each delta as it arrives, before the server has finished the reply', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(delta('m', { role: 'assistant', content: 'first ' }).data)}\n\n`);
      await released;
      response.write(`data: ${JSON.stringify(delta('m', { content: 'second' }, 'stop').data)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
    const parts: ModelStreamPart[] = [];
    const run = (async () => {
      for await (const part of compatible(server)('m').stream(ask('m'))) {
        parts.push(part);
        if (parts.length === 1) release();
      }
    })();
    await within(run, 5_000, 'the first delta was held back until the reply ended');
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'text-delta', 'finish']);
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'first ' });
  });

  it('assembles tool calls split over several chunks, in index order, after the text', async () => {
    const model = 'm';
    const server = await serve((_request, response) =>
      sendSse(response, [
        delta(model, { role: 'assistant', content: null }),
        delta(model, { content: 'Checking.' }),
        delta(model, {
          tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        }),
        delta(model, { tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
        delta(model, {
          tool_calls: [
            { index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"' } },
          ],
        }),
        delta(model, { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
        delta(model, { tool_calls: [{ index: 1, function: { arguments: 'city":"Oslo"}' } }] }),
        delta(model, {}, 'tool_calls'),
        chunk(model, [], {
          usage: {
            prompt_tokens: 50,
            completion_tokens: 20,
            total_tokens: 70,
            prompt_tokens_details: { cached_tokens: 32 },
          },
        }),
        '[DONE]',
      ]),
    );
    const parts = await collect(compatible(server)(model).stream(ask(model)));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call', toolCall: { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } } },
      { type: 'tool-call', toolCall: { id: 'call_b', name: 'get_weather', arguments: { city: 'Oslo' } } },
      {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens: 50, outputTokens: 20, cachedInputTokens: 32 },
        modelId: model,
      },
    ]);
  });
});

describe('a stream cut short', () => {
  // The server ends the response after two deltas: no finish_reason, no [DONE] (a crashed
  // runner, a proxy timeout). The reply is incomplete; it must not pass for a finished one.
  it('a stream that ends without a finish_reason or [DONE] is an error, not a finished reply', async () => {
    const server = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(delta('m', { role: 'assistant', content: 'The answer' }).data)}\n\n`);
      response.write(`data: ${JSON.stringify(delta('m', { content: ' is' }).data)}\n\n`);
      response.end();
    });
    const outcome = await collect(compatible(server, { retry: { maxRetries: 0 } })('m').stream(ask('m'))).then(
      (parts) => ({ resolvedWith: parts.at(-1) }),
      (error: unknown) => ({ code: LoushoError.isInstance(error) ? error.code : String(error) }),
    );
    expect(outcome).toEqual({ code: 'LOUSHO_PROVIDER_FAILED' });
  });
});

describe('usage and finish reasons', () => {
  it.each(MODES)('%s: reports prompt, completion and cached tokens', async (mode) => {
    const server = await serve(
      scripted([
        {
          content: 'ok',
          usage: {
            prompt_tokens: 2_006,
            completion_tokens: 300,
            total_tokens: 2_306,
            prompt_tokens_details: { cached_tokens: 1_920 },
          },
        },
      ]),
    );
    const result = await call(compatible(server)('gpt-4o'), ask('gpt-4o'), mode);
    const usage =
      mode === 'generate'
        ? (result as { usage: unknown }).usage
        : (result as ModelStreamPart[]).flatMap((p) => (p.type === 'finish' ? [p.usage] : []))[0];
    expect(usage).toEqual({ inputTokens: 2_006, outputTokens: 300, cachedInputTokens: 1_920 });
  });

  it.each(MODES)('%s: unknown usage is undefined, never zero', async (mode) => {
    const server = await serve(
      scripted([
        {
          content: 'ok',
          usage: mode === 'generate' ? null : { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
        },
      ]),
    );
    const result = await call(compatible(server)('m'), ask('m'), mode);
    const usage =
      mode === 'generate'
        ? (result as { usage: unknown }).usage
        : (result as ModelStreamPart[]).flatMap((p) => (p.type === 'finish' ? [p.usage] : []))[0];
    expect(usage).toEqual(
      mode === 'generate'
        ? { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined }
        : { inputTokens: 7, outputTokens: 2, cachedInputTokens: undefined },
    );
  });

  const REASONS = [
    ['stop', 'stop'],
    ['tool_calls', 'tool-calls'],
    ['length', 'length'],
    ['content_filter', 'content-filter'],
  ] as const;
  for (const mode of MODES) {
    it.each(REASONS)(`${mode}: finish_reason %s → %s`, async (wire, ours) => {
      const server = await serve(
        scripted([
          {
            content: 'Once upon a',
            finish: wire,
            ...(wire === 'tool_calls' ? { toolCalls: [{ id: 'c', name: 'now', arguments: '{}' }] } : {}),
          },
        ]),
      );
      const result = await call(compatible(server)('m'), ask('m'), mode);
      const reason =
        mode === 'generate'
          ? (result as { finishReason: unknown }).finishReason
          : (result as ModelStreamPart[]).flatMap((p) => (p.type === 'finish' ? [p.finishReason] : []))[0];
      expect(reason).toBe(ours);
    });
  }
});

// ---------------------------------------------------------------------------------------
// Agent runs
// ---------------------------------------------------------------------------------------

describe('a tool-call round trip inside an agent run', () => {
  it.each(['send', 'stream'] as const)('%s: the second request carries the call and the tool result', async (how) => {
    const server = await serve(
      scripted([
        {
          content: how === 'stream' ? 'Let me check.' : '',
          toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
          usage: {
            prompt_tokens: 80,
            completion_tokens: 15,
            total_tokens: 95,
            prompt_tokens_details: { cached_tokens: 0 },
          },
        },
        {
          content: 'It is sunny in Paris, 21°C.',
          usage: {
            prompt_tokens: 120,
            completion_tokens: 10,
            total_tokens: 130,
            prompt_tokens_details: { cached_tokens: 64 },
          },
        },
      ]),
    );
    const agent = createAgent({
      provider: compatible(server)('gpt-4o'),
      instructions: 'You answer weather questions.',
      tools: [weatherTool as Tool<unknown, unknown>],
    });
    const events: AgentEvent[] = [];
    const result =
      how === 'send'
        ? await agent.send('Weather in Paris?')
        : await (async () => {
            const stream = agent.stream('Weather in Paris?');
            for await (const event of stream) events.push(event);
            return stream.result;
          })();

    expect(result.text).toBe('It is sunny in Paris, 21°C.');
    expect(result.steps).toBe(2);
    expect(server.requests).toHaveLength(2);
    const first = bodyOf(server.requests[0]);
    const second = bodyOf(server.requests[1]);
    expect(first.stream === true).toBe(how === 'stream');
    expect(first.tools?.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(first.messages).toEqual([
      { role: 'system', content: 'You answer weather questions.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
    expect(second.messages).toEqual([
      { role: 'system', content: 'You answer weather questions.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: how === 'stream' ? 'Let me check.' : null,
        tool_calls: [
          { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: '{"city":"Paris","sky":"sunny","celsius":21}' },
    ]);
    expect(result.usage.inputTokens).toBe(200);
    expect(result.usage.outputTokens).toBe(25);
    expect(result.usage.cachedInputTokens).toBe(64);
    expect(result.usage.modelCalls.map((c) => c.model)).toEqual([SNAPSHOT, SNAPSHOT]);
    if (how === 'stream') {
      const text = events.flatMap((e) => (e.type === 'text.delta' ? [e.text] : [])).join('');
      expect(text).toBe('Let me check.It is sunny in Paris, 21°C.');
      expect(events.some((e) => e.type === 'tool.done' && e.toolName === 'get_weather' && !e.isError)).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

const OPENAI_OVERFLOW = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130521 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};
const OPENROUTER_OVERFLOW = {
  error: {
    message:
      'This endpoint\'s maximum context length is 131072 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
    code: 400,
    metadata: { provider_name: 'Chutes' },
  },
};
const LMSTUDIO_OVERFLOW_TEXT =
  'Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input';
const LMSTUDIO_OVERFLOW = { error: LMSTUDIO_OVERFLOW_TEXT };

const RATE_LIMIT = {
  error: {
    message:
      'Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29532, Requested 1650. Please try again in 1.2s. Visit https://platform.openai.com/account/rate-limits to learn more.',
    type: 'tokens',
    param: null,
    code: 'rate_limit_exceeded',
  },
};
const QUOTA = {
  error: {
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    type: 'insufficient_quota',
    param: null,
    code: 'insufficient_quota',
  },
};
const BAD_KEY = {
  error: {
    message:
      'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};
const IMAGE_TOO_LARGE = {
  error: {
    message: 'Invalid image: image exceeds the maximum size of 20MB.',
    type: 'invalid_request_error',
    param: 'messages.[2].content.[1].image_url',
    code: 'invalid_image',
  },
};
const SERVER_ERROR = {
  error: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    param: null,
    code: null,
  },
};
const OVERLOADED = {
  error: {
    message: 'The engine is currently overloaded, please try again later',
    type: 'server_error',
    param: null,
    code: null,
  },
};

/** A handler that answers every request with `status` and `body`. */
function failing(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => sendJson(response, status, body, headers);
}

describe('context overflow', () => {
  const CASES = [
    {
      vendor: 'OpenAI',
      body: OPENAI_OVERFLOW,
      make: (s: LoopbackServer) =>
        createOpenAI({ baseURL: `${s.url}/v1`, apiKey: 'test', retry: { maxRetries: 0 } })('gpt-4o'),
      details: { provider: 'openai', model: 'gpt-4o', status: 400, limit: 128_000, requested: 130_521 },
    },
    {
      vendor: 'OpenRouter',
      body: OPENROUTER_OVERFLOW,
      make: (s: LoopbackServer) =>
        createOpenRouter({ baseURL: `${s.url}/v1`, apiKey: 'test', retry: { maxRetries: 0 } })('qwen/qwen3-32b'),
      details: { provider: 'openrouter', model: 'qwen/qwen3-32b', status: 400, limit: 131_072, requested: 141_607 },
    },
    {
      vendor: 'LM Studio',
      body: LMSTUDIO_OVERFLOW,
      make: (s: LoopbackServer) =>
        createLMStudio({ baseURL: `${s.url}/v1`, retry: { maxRetries: 0 } })('qwen2.5-7b-instruct'),
      details: { provider: 'lmstudio', model: 'qwen2.5-7b-instruct', status: 400, limit: 4_096 },
    },
  ];
  for (const mode of MODES) {
    it.each(CASES)(
      `${mode}: $vendor's 400 is LOUSHO_CONTEXT_OVERFLOW with the limit (and the request size)`,
      async ({ body, make, details }) => {
        const server = await serve(failing(400, body));
        const provider = make(server);
        const error = await rejection(call(provider, ask(provider.modelId), mode));
        expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
        expect(error.isRetryable).toBe(false);
        expect(error.details).toEqual(details);
        expect(server.requests).toHaveLength(1);
      },
    );
  }

  it.each([
    ['an error object', { error: { message: LMSTUDIO_OVERFLOW_TEXT } }],
    ['an error string', { error: LMSTUDIO_OVERFLOW_TEXT }],
  ])('LM Studio streaming: 200, then an `event: error` frame with %s → LOUSHO_CONTEXT_OVERFLOW', async (_, data) => {
    const server = await serve((_request, response) => sendSse(response, [{ event: 'error', data }]));
    const provider = createLMStudio({ baseURL: `${server.url}/v1` })('qwen2.5-7b-instruct');
    const error = await rejection(collect(provider.stream(ask('qwen2.5-7b-instruct'))));
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(error.details).toMatchObject({ provider: 'lmstudio', limit: 4_096 });
    expect(error.message).toContain('context length of only 4096 tokens');
    expect(server.requests).toHaveLength(1);
  });
});

describe('rate limits', () => {
  it.each([
    ["OpenAI's retry-after-ms", { 'retry-after-ms': '1500' }, 1_500],
    ['retry-after in seconds', { 'retry-after': '2' }, 2_000],
  ])('429 with %s → LOUSHO_RATE_LIMITED with details.retryAfterMs', async (_, headers, wait) => {
    const server = await serve(failing(429, RATE_LIMIT, headers));
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test', retry: { maxRetries: 0 } })('gpt-4o');
    const error = await rejection(provider.generate(ask('gpt-4o')));
    expect(error.code).toBe('LOUSHO_RATE_LIMITED');
    expect(error.isRetryable).toBe(true);
    expect(error.details).toMatchObject({ provider: 'openai', status: 429, retryAfterMs: wait });
    expect(error.message).toContain('Rate limit reached for gpt-4o');
  });

  it('insufficient_quota is not retryable: one request, even with retries on', async () => {
    const server = await serve(failing(429, QUOTA, { 'retry-after': '0' }));
    const provider = createOpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      retry: { maxRetries: 2, initialDelayMs: 1 },
    })('gpt-4o');
    const error = await rejection(provider.generate(ask('gpt-4o')));
    expect(error.code).toBe('LOUSHO_RATE_LIMITED');
    expect(error.isRetryable).toBe(false);
    expect(error.details).toMatchObject({ quotaExceeded: true });
    expect(server.requests).toHaveLength(1);
  });

  it.each(MODES)('%s: a 429 (retry-after: 0) then a success succeeds after exactly 2 requests', async (mode) => {
    let n = 0;
    const ok = scripted([{ content: 'Finally.' }]);
    const server = await serve(async (request, response) => {
      if (n++ === 0) sendJson(response, 429, RATE_LIMIT, { 'retry-after': '0' });
      else await ok(request, response);
    });
    const provider = compatible(server, { retry: { maxRetries: 1, initialDelayMs: 1 } })('gpt-4o');
    const result = await call(provider, ask('gpt-4o'), mode);
    if (mode === 'generate') expect((result as { text: string }).text).toBe('Finally.');
    else expect((result as ModelStreamPart[]).filter((p) => p.type === 'text-delta').length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
  });
});

describe('authentication, server errors and media', () => {
  it('401 → LOUSHO_AUTHENTICATION_FAILED naming OPENAI_API_KEY; not retried', async () => {
    const server = await serve(failing(401, BAD_KEY));
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', retry: { initialDelayMs: 1 } })(
      'gpt-4o',
    );
    const error = await rejection(provider.generate(ask('gpt-4o')));
    expect(error.code).toBe('LOUSHO_AUTHENTICATION_FAILED');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.details).toMatchObject({ provider: 'openai', status: 401 });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it.each([
    [500, SERVER_ERROR],
    [503, OVERLOADED],
  ])('%i → LOUSHO_PROVIDER_FAILED, retryable; maxRetries 2 makes exactly 3 requests', async (status, body) => {
    const server = await serve(failing(status, body));
    const provider = compatible(server, { retry: { maxRetries: 2, initialDelayMs: 1 } })('gpt-4o');
    const error = await rejection(provider.generate(ask('gpt-4o')));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.isRetryable).toBe(true);
    expect(error.details).toMatchObject({ status });
    expect(error.message).toContain(body.error.message);
    expect(server.requests).toHaveLength(3);
  });

  it('a 5xx before the first part of a stream is retried too (bounded)', async () => {
    const server = await serve(failing(503, OVERLOADED));
    const provider = compatible(server, { retry: { maxRetries: 2, initialDelayMs: 1 } })('gpt-4o');
    const error = await rejection(collect(provider.stream(ask('gpt-4o'))));
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(server.requests).toHaveLength(3);
  });

  it('an image over the size limit → LOUSHO_MEDIA_TOO_LARGE, not retryable', async () => {
    const server = await serve(failing(400, IMAGE_TOO_LARGE));
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' })('gpt-4o');
    const error = await rejection(
      provider.generate({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Describe images.' },
          { role: 'user', content: 'Here:' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'this one' },
              { type: 'image', image: 'https://example.com/huge.png' },
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe('LOUSHO_MEDIA_TOO_LARGE');
    expect(error.isRetryable).toBe(false);
    expect(error.details).toMatchObject({ provider: 'openai', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('a server that is not running → LOUSHO_PROVIDER_FAILED, retryable', async () => {
    const url = await closedPortUrl();
    const provider = createOpenAICompatible({ baseURL: `${url}/v1`, apiKey: 'test', retry: { maxRetries: 0 } })('m');
    const error = await rejection(within(provider.generate(ask('m')), 10_000, 'the call to a closed port hung'));
    expect({ code: error.code, isRetryable: error.isRetryable, message: error.message }).toMatchObject({
      code: 'LOUSHO_PROVIDER_FAILED',
      isRetryable: true,
      message: expect.stringMatching(/^Could not reach openai-compatible\/m/),
    });
    // The client's own sentence ("Connection error.") is joined without a doubled full stop.
    expect(error.message).toMatch(/Connection error\. Check the base URL/);
    expect(error.message).not.toMatch(/(?<!\.)\.\.(?!\.)/);
  });
});

describe('missing API keys', () => {
  it.each([
    ['openai/gpt-4o', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    ['openrouter/openai/gpt-4o-mini', 'OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL'],
  ] as const)(
    '%s without %s: generate and stream reject with LOUSHO_API_KEY_MISSING; no request is sent',
    async (spec, keyVar, urlVar) => {
      const server = await serve(scripted([{ content: 'should not be reached' }]));
      process.env[urlVar] = `${server.url}/v1`;
      const resolve = await freshResolveProvider();
      const provider = resolve(spec);
      for (const attempt of [
        () => provider.generate(ask(provider.modelId)),
        () => collect(provider.stream(ask(provider.modelId))),
      ]) {
        const error = await rejection(attempt());
        expect(error.code).toBe('LOUSHO_API_KEY_MISSING');
        expect(error.message).toContain(keyVar);
        expect(error.details).toMatchObject({ variable: keyVar });
      }
      process.env[keyVar] = '';
      expect((await rejection(provider.generate(ask(provider.modelId)))).code).toBe('LOUSHO_API_KEY_MISSING');
      expect(server.requests).toHaveLength(0);
    },
  );

  it.each([
    ['openai/gpt-4o', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'gpt-4o', 'max_completion_tokens'],
    ['openrouter/openai/gpt-4o-mini', 'OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL', 'openai/gpt-4o-mini', 'max_tokens'],
  ] as const)(
    '%s with %s set: the key and the base URL come from the environment',
    async (spec, keyVar, urlVar, model, field) => {
      const server = await serve(scripted([{ content: 'Hi!' }]));
      process.env[keyVar] = 'sk-from-env';
      process.env[urlVar] = `${server.url}/v1`;
      const provider = (await freshResolveProvider())(spec);
      const response = await provider.generate({ ...ask(model), maxOutputTokens: 64 });
      expect(response.text).toBe('Hi!');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-from-env');
      const body = bodyOf(server.requests[0]);
      expect(body.model).toBe(model);
      expect(body[field]).toBe(64);
    },
  );

  it.each([
    ['ollama/qwen3:8b', 'OLLAMA_HOST', (url: string) => url, 'qwen3:8b'],
    ['lmstudio/qwen2.5-7b-instruct', 'LMSTUDIO_BASE_URL', (url: string) => `${url}/v1`, 'qwen2.5-7b-instruct'],
  ] as const)('%s needs no key (%s points it at the server)', async (spec, variable, value, model) => {
    const server = await serve(scripted([{ content: 'Local hello.' }]));
    process.env[variable] = value(server.url);
    const provider = (await freshResolveProvider())(spec);
    expect(provider.modelId).toBe(model);
    expect((await provider.generate(ask(model))).text).toBe('Local hello.');
    const parts = await collect(provider.stream(ask(model)));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(bodyOf(server.requests[0]).model).toBe(model);
  });
});

describe('abort', () => {
  /** A server that sends one delta every 250 ms, 20 of them. */
  function slowStream(): Handler {
    return (_request, response) =>
      sendSse(
        response,
        [
          delta('m', { role: 'assistant', content: '' }),
          ...Array.from({ length: 20 }, (_, i) => delta('m', { content: `part${i} ` })),
          delta('m', {}, 'stop'),
          '[DONE]',
        ],
        { delayMs: 250 },
      );
  }

  it('an abort in the middle of a stream rejects with LOUSHO_ABORTED at once', async () => {
    const server = await serve(slowStream());
    const provider = compatible(server)('m');
    const controller = new AbortController();
    const parts: ModelStreamPart[] = [];
    let abortedAt = 0;
    const error = await rejection(
      within(
        (async () => {
          for await (const part of provider.stream({ ...ask('m'), abortSignal: controller.signal })) {
            parts.push(part);
            if (part.type === 'text-delta' && abortedAt === 0) {
              abortedAt = Date.now();
              controller.abort();
            }
          }
          return { partsAfterAbort: parts };
        })(),
        4_000,
        'the aborted stream did not stop',
      ),
    );
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(parts).toEqual([{ type: 'text-delta', text: 'part0 ' }]);
  });

  it('an agent run aborted in the middle of a streamed reply fails with LOUSHO_ABORTED at once', async () => {
    const server = await serve(slowStream());
    const agent = createAgent({ provider: compatible(server)('m') });
    const controller = new AbortController();
    let abortedAt = 0;
    const stream = agent.stream('Tell me a long story.', { abortSignal: controller.signal });
    const error = await rejection(
      within(
        (async () => {
          for await (const event of stream) {
            if (event.type === 'text.delta' && abortedAt === 0) {
              abortedAt = Date.now();
              controller.abort();
            }
          }
          const { text, finishReason } = await stream.result;
          return { runResolvedAfterAbort: { text, finishReason } };
        })(),
        4_000,
        'the aborted run did not stop',
      ),
    );
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect((await rejection(stream.result)).code).toBe('LOUSHO_ABORTED');
  });

  it('a signal aborted before the call sends no request', async () => {
    const server = await serve(scripted([{ content: 'no' }]));
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(compatible(server)('m').generate({ ...ask('m'), abortSignal: controller.signal }));
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(server.requests).toHaveLength(0);
  });
});
