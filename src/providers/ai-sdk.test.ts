import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  type LanguageModelV2,
  type LanguageModelV2CallOptions,
  type LanguageModelV2StreamPart,
  type LanguageModelV3,
  type LanguageModelV3Content,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
  LoadAPIKeyError,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import {
  type LoopbackServer,
  type ReceivedRequest,
  sendJson,
  sendSse,
  startLoopbackServer,
} from '../test-support/loopback-server.js';
import { fromAISDK } from './ai-sdk.js';
import { aiSDKFinishReason } from './ai-sdk-finish-reason.js';
import { toAISDKPrompt } from './ai-sdk-prompt.js';
import type { AISDKCallOptions, AISDKLanguageModel } from './ai-sdk-spec.js';
import { aiSDKUsage } from './ai-sdk-usage.js';

// ---------------------------------------------------------------- helpers

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

function usageV3(input: number, output: number, cacheRead?: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input - (cacheRead ?? 0), cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function resultV3(
  content: LanguageModelV3Content[],
  unified: 'stop' | 'tool-calls' | 'length' = 'stop',
  usage: LanguageModelV3Usage = usageV3(12, 4),
): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified, raw: unified }, usage, warnings: [], response: { modelId: 'gpt-x-2025' } };
}

function request(messages: Message[] | string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'gpt-x',
    messages: typeof messages === 'string' ? [{ role: 'user', content: messages }] : messages,
    ...extra,
  };
}

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

/** An AI SDK 5 (specification v2) model built by hand in the spec's own types. */
function modelV2(
  generate: (options: LanguageModelV2CallOptions) => ReturnType<LanguageModelV2['doGenerate']>,
  stream?: (options: LanguageModelV2CallOptions) => ReturnType<LanguageModelV2['doStream']>,
): LanguageModelV2 & { calls: LanguageModelV2CallOptions[] } {
  const calls: LanguageModelV2CallOptions[] = [];
  return {
    specificationVersion: 'v2',
    provider: 'legacy.chat',
    modelId: 'legacy-1',
    supportedUrls: {},
    calls,
    doGenerate: (options) => {
      calls.push(options);
      return generate(options);
    },
    doStream: (options) => {
      calls.push(options);
      if (stream === undefined) throw new Error('no stream scripted');
      return stream(options);
    },
  };
}

function apiCallError(statusCode: number, body: unknown, headers: Record<string, string> = {}): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://api.example.test/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: { 'content-type': 'application/json', ...headers },
    responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const OVERFLOW_BODY = {
  error: {
    message:
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
  },
};

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

// ---------------------------------------------------------------- types

describe('AISDKLanguageModel', () => {
  it('accepts the AI SDK 5 and 6 model types as they are', () => {
    // Compile-time checks: both spec versions are assignable without a cast.
    const v3: AISDKLanguageModel = new MockLanguageModelV3();
    const v2: AISDKLanguageModel = modelV2(async () => ({
      content: [],
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      warnings: [],
    }));
    expect(fromAISDK(v3).provider).toBe('mock-provider');
    expect(fromAISDK(v2).provider).toBe('legacy');
  });

  it('names the provider from model.provider up to its first dot, or from options.provider', () => {
    const model = new MockLanguageModelV3({ provider: 'openai.chat', modelId: 'gpt-4o-mini' });
    const provider = fromAISDK(model);
    expect(provider.provider).toBe('openai');
    expect(provider.modelId).toBe('gpt-4o-mini');
    expect(fromAISDK(model, { provider: 'azure' }).provider).toBe('azure');
    expect(fromAISDK(new MockLanguageModelV3({ provider: '' })).provider).toBe('ai-sdk');
  });

  it('refuses what is not a model, and v1 (AI SDK 4) models', () => {
    expect(() => fromAISDK({} as AISDKLanguageModel)).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
    const v1: AISDKLanguageModel = {
      specificationVersion: 'v1',
      provider: 'openai.chat',
      modelId: 'gpt-4o',
      doGenerate: () => Promise.reject(new Error('unused')),
      doStream: () => Promise.reject(new Error('unused')),
    };
    expect(() => fromAISDK(v1)).toThrow(/v1 language model specification/);
  });
});

// ---------------------------------------------------------------- generate

describe('fromAISDK(model).generate()', () => {
  it('returns a plain reply with its text, finish reason, usage and model id (v3)', async () => {
    const model = new MockLanguageModelV3({
      modelId: 'gpt-x',
      doGenerate: resultV3(
        [
          { type: 'reasoning', text: 'thinking...' },
          { type: 'text', text: 'Hello' },
          { type: 'text', text: ', world' },
        ],
        'stop',
        usageV3(120, 7, 100),
      ),
    });
    const response = await fromAISDK(model).generate(request('hi'));
    expect(response).toEqual({
      text: 'Hello, world',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100 },
      modelId: 'gpt-x-2025',
    });
  });

  it('sends the transcript, tools, output schema, maxOutputTokens, temperature and the abort signal', async () => {
    const model = new MockLanguageModelV3({ doGenerate: resultV3([{ type: 'text', text: '{"ok":true}' }]) });
    const controller = new AbortController();
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    await fromAISDK(model).generate(
      request(
        [
          { role: 'system', content: 'Be brief.', metadata: { pinned: true } },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', image: 'https://example.test/cat.png', detail: 'low' },
              { type: 'image', image: `data:image/webp;base64,${PNG_BASE64}` },
              { type: 'image', image: PNG },
            ],
          },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }] },
          { role: 'tool', toolCallId: 'c1', content: '3' },
        ],
        {
          tools: [{ name: 'add', description: 'Add two numbers', parameters: { type: 'object' } }],
          outputSchema: schema,
          maxOutputTokens: 256,
          temperature: 0.2,
          abortSignal: controller.signal,
        },
      ),
    );
    const [call] = model.doGenerateCalls;
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          {
            type: 'file',
            data: new URL('https://example.test/cat.png'),
            mediaType: 'image/*',
            providerOptions: { openai: { imageDetail: 'low' } },
          },
          { type: 'file', data: PNG_BASE64, mediaType: 'image/webp' },
          { type: 'file', data: PNG, mediaType: 'image/png' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 1, b: 2 } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text', value: '3' } }],
      },
    ]);
    expect(call?.tools).toEqual([
      { type: 'function', name: 'add', description: 'Add two numbers', inputSchema: { type: 'object' } },
    ]);
    expect(call?.responseFormat).toEqual({ type: 'json', schema });
    expect(call?.maxOutputTokens).toBe(256);
    expect(call?.temperature).toBe(0.2);
    // The call's own signal, which fires with the request's (and on requestTimeoutMs).
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal);
    controller.abort();
    expect(call?.abortSignal?.aborted).toBe(true);
  });

  it('omits what the request does not set', async () => {
    const model = new MockLanguageModelV3({ doGenerate: resultV3([{ type: 'text', text: 'ok' }]) });
    await fromAISDK(model).generate(request('hi'));
    // abortSignal: the call's own, for requestTimeoutMs.
    expect(Object.keys(model.doGenerateCalls[0] ?? {})).toEqual(['prompt', 'abortSignal']);
  });

  it('parses the JSON text of tool calls and leaves out calls the provider ran itself', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: resultV3(
        [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":2,"b":3}' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'now', input: '' },
          { type: 'tool-call', toolCallId: 'c3', toolName: 'echo', input: '{not json' },
          { type: 'tool-call', toolCallId: 'ws', toolName: 'web_search', input: '{}', providerExecuted: true },
        ],
        'tool-calls',
      ),
    });
    const response = await fromAISDK(model).generate(request('go'));
    expect(response.toolCalls).toEqual([
      { id: 'c1', name: 'add', arguments: { a: 2, b: 3 } },
      { id: 'c2', name: 'now', arguments: {} },
      { id: 'c3', name: 'echo', arguments: '{not json' },
    ]);
    expect(response.text).toBe('');
    expect(response.finishReason).toBe('tool-calls');
  });

  it('reads an AI SDK 5 (v2) model: numeric usage, string finish reasons, v2 prompt forms', async () => {
    const model = modelV2(async () => ({
      content: [{ type: 'text', text: 'cut off' }],
      finishReason: 'length',
      usage: { inputTokens: 30, outputTokens: 16, totalTokens: 46, cachedInputTokens: 10 },
      warnings: [],
    }));
    const response = await fromAISDK(model).generate(
      request([
        { role: 'user', content: [{ type: 'image', image: new URL('https://example.test/a.jpg') }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'shot', arguments: {} }] },
        {
          role: 'tool',
          toolCallId: 'c1',
          content: [
            { type: 'text', text: 'screenshot' },
            { type: 'image', image: PNG_BASE64 },
          ],
        },
      ]),
    );
    expect(response).toEqual({
      text: 'cut off',
      toolCalls: [],
      finishReason: 'length',
      usage: { inputTokens: 30, outputTokens: 16, cachedInputTokens: 10 },
      modelId: 'legacy-1',
    });
    expect(model.calls[0]?.prompt[0]).toEqual({
      role: 'user',
      content: [{ type: 'file', data: new URL('https://example.test/a.jpg'), mediaType: 'image/*' }],
    });
    expect(model.calls[0]?.prompt[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'shot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'screenshot' },
              { type: 'media', data: PNG_BASE64, mediaType: 'image/png' },
            ],
          },
        },
      ],
    });
  });

  it('sends v4 (AI SDK 7) models tagged file data and reads their structured output text', async () => {
    const calls: AISDKCallOptions[] = [];
    const model: AISDKLanguageModel = {
      specificationVersion: 'v4',
      provider: 'future.responses',
      modelId: 'f-1',
      doGenerate: async (options) => {
        calls.push(options);
        return {
          content: [
            { type: 'text', text: 'draft ' },
            { type: 'text', text: '{"a":1}' },
          ],
          structuredOutputText: '{"a":1}',
          finishReason: { unified: 'interrupted', raw: undefined },
          usage: {
            inputTokens: { total: undefined, noCache: 5, cacheRead: 3, cacheWrite: 2 },
            outputTokens: { total: undefined, text: 4, reasoning: 6 },
          },
        };
      },
      doStream: async () => {
        throw new Error('unused');
      },
    };
    const response = await fromAISDK(model).generate(
      request([{ role: 'user', content: [{ type: 'image', image: PNG, mediaType: 'image/png' }] }], {
        outputSchema: { type: 'object' },
      }),
    );
    expect(response.text).toBe('{"a":1}');
    expect(response.finishReason).toBe('other');
    expect(response.usage).toEqual({
      inputTokens: 10,
      outputTokens: 10,
      cachedInputTokens: 3,
      cacheWriteInputTokens: 2,
      reasoningTokens: 6,
    });
    expect(calls[0]?.prompt[0]).toEqual({
      role: 'user',
      content: [{ type: 'file', data: { type: 'data', data: PNG }, mediaType: 'image/png' }],
    });
  });
});

// ---------------------------------------------------------------- conversions

describe('usage and finish reasons', () => {
  it('maps v2 usage; what is not reported stays undefined', () => {
    expect(aiSDKUsage({ inputTokens: 10, outputTokens: 2, cachedInputTokens: 4 })).toEqual({
      inputTokens: 10,
      outputTokens: 2,
      cachedInputTokens: 4,
    });
    expect(aiSDKUsage({ inputTokens: undefined, outputTokens: 3 })).toEqual({
      inputTokens: undefined,
      outputTokens: 3,
      cachedInputTokens: undefined,
    });
    expect(aiSDKUsage(undefined)).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
      cachedInputTokens: undefined,
    });
  });

  it('maps v3 usage: totals, cache reads, and nothing invented', () => {
    expect(aiSDKUsage(usageV3(50, 9, 20))).toEqual({ inputTokens: 50, outputTokens: 9, cachedInputTokens: 20 });
    // The reasoning count is reported; the totals it is a part of are not, and stay unknown.
    expect(
      aiSDKUsage({
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: 5 },
      }),
    ).toEqual({ inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined, reasoningTokens: 5 });
  });

  it('keeps cache writes and reasoning apart from the totals they are part of (v3 and v2)', () => {
    expect(
      aiSDKUsage({
        inputTokens: { total: 1_000, noCache: 100, cacheRead: 600, cacheWrite: 300 },
        outputTokens: { total: 90, text: 30, reasoning: 60 },
      }),
    ).toEqual({
      inputTokens: 1_000,
      outputTokens: 90,
      cachedInputTokens: 600,
      cacheWriteInputTokens: 300,
      reasoningTokens: 60,
    });
    // Without totals, the parts add up to them.
    expect(
      aiSDKUsage({
        inputTokens: { noCache: 100, cacheRead: 600, cacheWrite: 300 },
        outputTokens: { text: 30, reasoning: 60 },
      }),
    ).toMatchObject({ inputTokens: 1_000, outputTokens: 90, cacheWriteInputTokens: 300, reasoningTokens: 60 });
    expect(aiSDKUsage({ inputTokens: 1_000, outputTokens: 90, cachedInputTokens: 600, reasoningTokens: 60 })).toEqual({
      inputTokens: 1_000,
      outputTokens: 90,
      cachedInputTokens: 600,
      reasoningTokens: 60,
    });
  });

  it.each([
    ['stop', 'stop'],
    ['tool-calls', 'tool-calls'],
    ['length', 'length'],
    ['content-filter', 'content-filter'],
    ['error', 'other'],
    ['other', 'other'],
    ['unknown', 'other'],
    ['interrupted', 'other'],
  ] as const)('maps %s to %s in both shapes', (theirs, ours) => {
    expect(aiSDKFinishReason(theirs)).toBe(ours);
    expect(aiSDKFinishReason({ unified: theirs, raw: 'vendor_reason' })).toBe(ours);
  });

  it('merges consecutive tool results into one tool message and marks errors', () => {
    const prompt = toAISDKPrompt(
      [
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Checking.' }],
          toolCalls: [
            { id: 'a', name: 'read', arguments: { path: 'x' } },
            { id: 'b', name: 'read', arguments: { path: 'y' } },
          ],
        },
        { role: 'tool', toolCallId: 'a', content: 'x body' },
        { role: 'tool', toolCallId: 'b', toolName: 'read', content: 'ENOENT: y', isError: true },
      ],
      'v3',
    );
    expect(prompt).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: { path: 'x' } },
          { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: { path: 'y' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'read', output: { type: 'text', value: 'x body' } },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 'read',
            output: { type: 'error-text', value: 'ENOENT: y' },
          },
        ],
      },
    ]);
  });

  it('writes images in tool results in each version form', () => {
    const messages: Message[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'shot', arguments: {} }] },
      {
        role: 'tool',
        toolCallId: 'c',
        content: [
          { type: 'image', image: PNG },
          { type: 'image', image: 'https://example.test/s.png' },
        ],
      },
    ];
    const output = (form: 'v2' | 'v3' | 'v4') => {
      const tool = toAISDKPrompt(messages, form)[1];
      return tool?.role === 'tool' ? tool.content[0]?.output : undefined;
    };
    expect(output('v3')).toEqual({
      type: 'content',
      value: [
        { type: 'image-data', data: PNG_BASE64, mediaType: 'image/png' },
        { type: 'image-url', url: 'https://example.test/s.png' },
      ],
    });
    expect(output('v4')).toEqual({
      type: 'content',
      value: [
        { type: 'file', data: { type: 'data', data: PNG_BASE64 }, mediaType: 'image/png' },
        { type: 'file', data: { type: 'url', url: new URL('https://example.test/s.png') }, mediaType: 'image/*' },
      ],
    });
    expect(output('v2')).toEqual({
      type: 'content',
      value: [
        { type: 'media', data: PNG_BASE64, mediaType: 'image/png' },
        { type: 'text', text: '[image: https://example.test/s.png]' },
      ],
    });
  });
});

// ---------------------------------------------------------------- stream

describe('fromAISDK(model).stream()', () => {
  it('yields text deltas, tool calls and one finish part (v3)', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'r1', modelId: 'gpt-x-2025', timestamp: new Date(0) },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Let me ' },
      { type: 'text-delta', id: 't', delta: '' },
      { type: 'text-delta', id: 't', delta: 'add.' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'add' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"a":1,"b":2}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1,"b":2}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usageV3(40, 11) },
    ];
    const model = new MockLanguageModelV3({ doStream: { stream: convertArrayToReadableStream(parts) } });
    expect(await collect(fromAISDK(model).stream(request('1+2?')))).toEqual([
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'add.' },
      { type: 'tool-call', toolCall: { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } } },
      {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens: 40, outputTokens: 11, cachedInputTokens: undefined },
        modelId: 'gpt-x-2025',
      },
    ]);
  });

  it('reads a v2 stream with numeric usage and a string finish reason', async () => {
    const parts: LanguageModelV2StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } },
    ];
    const model = modelV2(
      async () => {
        throw new Error('unused');
      },
      async () => ({ stream: convertArrayToReadableStream(parts) }),
    );
    expect(await collect(fromAISDK(model).stream(request('hi')))).toEqual([
      { type: 'text-delta', text: 'Hi' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 1, cachedInputTokens: undefined },
        modelId: 'legacy-1',
      },
    ]);
  });

  it('throws on an error part', async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: 'text-delta', id: 't', delta: 'partial' },
          { type: 'error', error: { error: { message: 'upstream overloaded' } } },
          { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: usageV3(1, 1) },
        ]),
      },
    });
    const seen: ModelStreamPart[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of fromAISDK(model).stream(request('hi'))) seen.push(part);
      })(),
    );
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial' }]);
    expect(error.code).toBe('LOUSHO_PROVIDER_FAILED');
    expect(error.message).toContain('upstream overloaded');
  });

  it('classifies an APICallError in an error part, and a stream that never finishes is an error', async () => {
    const overflow = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: 'error', error: apiCallError(400, OVERFLOW_BODY) },
        ]),
      },
    });
    expect((await rejection(collect(fromAISDK(overflow).stream(request('hi'))))).code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    const unfinished = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([{ type: 'text-delta', id: 't', delta: 'a' }]),
      },
    });
    const error = await rejection(collect(fromAISDK(unfinished).stream(request('hi'))));
    expect(error.message).toMatch(/ended without a finish part/);
  });
});

// ---------------------------------------------------------------- errors and retries

describe('errors', () => {
  it('maps an APICallError 429 with retry-after to LOUSHO_RATE_LIMITED, and retries it', async () => {
    const limited = apiCallError(
      429,
      { error: { message: 'Rate limit reached for requests', code: 'rate_limit_exceeded' } },
      { 'retry-after': '2' },
    );
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        throw limited;
      },
    });
    const error = await rejection(fromAISDK(model, { retry: { maxRetries: 0 } }).generate(request('hi')));
    expect(error.code).toBe('LOUSHO_RATE_LIMITED');
    expect(error.isRetryable).toBe(true);
    expect(error.details).toMatchObject({ provider: 'mock-provider', model: 'mock-model-id', status: 429 });
    expect(error.details?.retryAfterMs).toBe(2000);
    expect(error.message).toContain('Rate limit reached');
    expect(error.cause).toBe(limited);
    expect(calls).toBe(1);

    let attempt = 0;
    const flaky = new MockLanguageModelV3({
      doGenerate: async () => {
        if (attempt++ === 0) throw apiCallError(429, 'slow down', { 'retry-after-ms': '5' });
        return resultV3([{ type: 'text', text: 'second time' }]);
      },
    });
    expect((await fromAISDK(flaky, { retry: { maxRetries: 1 } }).generate(request('hi'))).text).toBe('second time');
    expect(attempt).toBe(2);
  });

  it('maps a 400 context-length body to LOUSHO_CONTEXT_OVERFLOW, not retried', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw apiCallError(400, OVERFLOW_BODY);
      },
    });
    const error = await rejection(fromAISDK(model).generate(request('long')));
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(error.details).toMatchObject({ limit: 8192, requested: 9000, status: 400 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('retries a stream that fails before its first part', async () => {
    let attempt = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        if (attempt++ === 0) throw apiCallError(503, { error: { message: 'overloaded' } });
        return {
          stream: convertArrayToReadableStream<LanguageModelV3StreamPart>([
            { type: 'text-delta', id: 't', delta: 'ok' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageV3(1, 1) },
          ]),
        };
      },
    });
    const parts = await collect(fromAISDK(model, { retry: { initialDelayMs: 1 } }).stream(request('hi')));
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'ok' });
    expect(attempt).toBe(2);
  });

  it('maps network failures, missing keys and other errors', async () => {
    const network = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED',
      url: 'http://127.0.0.1:9/v1/chat/completions',
      requestBodyValues: {},
      isRetryable: true,
    });
    const cases: [unknown, string, boolean][] = [
      [network, 'LOUSHO_PROVIDER_FAILED', true],
      [new LoadAPIKeyError({ message: 'OpenAI API key is missing.' }), 'LOUSHO_API_KEY_MISSING', false],
      [new TypeError('bad response shape'), 'LOUSHO_PROVIDER_FAILED', false],
      [apiCallError(401, { error: { message: 'Incorrect API key' } }), 'LOUSHO_AUTHENTICATION_FAILED', false],
    ];
    for (const [thrown, code, retryable] of cases) {
      const model = new MockLanguageModelV3({
        doGenerate: async () => {
          throw thrown;
        },
      });
      const error = await rejection(fromAISDK(model, { retry: { maxRetries: 0 } }).generate(request('hi')));
      expect([error.code, error.isRetryable]).toEqual([code, retryable]);
      expect(error.cause).toBe(thrown);
    }
  });
});

// ---------------------------------------------------------------- abort

describe('abort', () => {
  it('does not call the model when the signal has already fired', async () => {
    const model = new MockLanguageModelV3({ doGenerate: resultV3([{ type: 'text', text: 'x' }]) });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(fromAISDK(model).generate(request('hi', { abortSignal: controller.signal })));
    expect(error.code).toBe('LOUSHO_ABORTED');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('stops a call that is in flight, even when the model ignores the signal', async () => {
    const model = new MockLanguageModelV3({ doGenerate: () => new Promise<LanguageModelV3GenerateResult>(() => {}) });
    const controller = new AbortController();
    const pending = fromAISDK(model).generate(request('hi', { abortSignal: controller.signal }));
    setTimeout(() => controller.abort(), 5);
    expect((await rejection(pending)).code).toBe('LOUSHO_ABORTED');
  });

  it('stops a stream between parts and cancels it', async () => {
    let cancelled = false;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        controller.enqueue({ type: 'text-delta', id: 't', delta: 'first' });
      },
      cancel() {
        cancelled = true;
      },
    });
    const model = new MockLanguageModelV3({ doStream: { stream } });
    const controller = new AbortController();
    const iterator = fromAISDK(model)
      .stream(request('hi', { abortSignal: controller.signal }))
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ type: 'text-delta', text: 'first' });
    const next = iterator.next();
    controller.abort();
    expect((await rejection(next)).code).toBe('LOUSHO_ABORTED');
    expect(cancelled).toBe(true);
  });
});

// ---------------------------------------------------------------- inside an agent

describe('createAgent({ provider: fromAISDK(model) })', () => {
  /** A v3 mock that calls add(2, 3) first, then answers with the tool's result. */
  function adder(): MockLanguageModelV3 {
    const answer = (options: Parameters<LanguageModelV3['doGenerate']>[0]) => {
      const last = options.prompt[options.prompt.length - 1];
      if (last?.role !== 'tool') {
        return resultV3(
          [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'add', input: '{"a":2,"b":3}' }],
          'tool-calls',
          usageV3(20, 8),
        );
      }
      const part = last.content[0];
      const value = part?.type === 'tool-result' && part.output.type === 'text' ? part.output.value : '?';
      return resultV3([{ type: 'text', text: `The sum is ${value}.` }], 'stop', usageV3(30, 6, 20));
    };
    return new MockLanguageModelV3({
      doGenerate: async (options) => answer(options),
      doStream: async (options) => {
        const result = answer(options);
        const parts: LanguageModelV3StreamPart[] = [];
        for (const c of result.content) {
          if (c.type === 'text') parts.push({ type: 'text-delta', id: 't', delta: c.text });
          if (c.type === 'tool-call') parts.push(c);
        }
        parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
        return { stream: convertArrayToReadableStream(parts) };
      },
    });
  }

  it('runs a tool-call round trip with send()', async () => {
    const model = adder();
    const agent = createAgent({ provider: fromAISDK(model), tools: [add], instructions: 'You add numbers.' });
    const result = await agent.send('What is 2 + 3?');
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps).toBe(2);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 50, outputTokens: 14, cachedInputTokens: 20 });
    const second = model.doGenerateCalls[1];
    expect(second?.prompt[0]).toEqual({ role: 'system', content: 'You add numbers.' });
    expect(second?.prompt.slice(2)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'add', input: { a: 2, b: 3 } }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'add', output: { type: 'text', value: '5' } }],
      },
    ]);
    expect(second?.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'add', description: 'Add two numbers' }),
    ]);
  });

  it('runs the same round trip streaming with stream()', async () => {
    const model = adder();
    const agent = createAgent({ provider: fromAISDK(model), tools: [add] });
    const run = agent.stream('What is 2 + 3?');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect((await run.result).text).toBe('The sum is 5.');
    expect(events.filter((e) => e.type === 'text.delta').map((e) => (e.type === 'text.delta' ? e.text : ''))).toEqual([
      'The sum is 5.',
    ]);
    expect(events.some((e) => e.type === 'tool.start')).toBe(true);
    expect(model.doStreamCalls).toHaveLength(2);
  });
});

// ---------------------------------------------------------------- a real AI SDK provider over HTTP

describe('@ai-sdk/openai-compatible against a loopback chat-completions server', () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((_request, response) => sendJson(response, 500, {}));
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    server.requests.length = 0;
  });

  const modelFor = () =>
    createOpenAICompatible({ name: 'loopback', baseURL: `${server.url}/v1`, apiKey: 'test-key', includeUsage: true })(
      'local-model',
    );

  /** Answers like an OpenAI chat-completions server: a call to add first, then the sum. */
  function chatServer(request: ReceivedRequest, response: import('node:http').ServerResponse): Promise<void> | void {
    const body = request.body as { stream?: boolean; messages: { role: string; content?: unknown }[] };
    const last = body.messages[body.messages.length - 1];
    const usage = { prompt_tokens: 25, completion_tokens: 5, total_tokens: 30 };
    const toolCall = { id: 'call_abc', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } };
    const answer = last?.role === 'tool' ? `The sum is ${String(last.content)}.` : undefined;
    if (body.stream !== true) {
      return sendJson(response, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'local-model-q4',
        choices: [
          {
            index: 0,
            message:
              answer === undefined
                ? { role: 'assistant', content: null, tool_calls: [toolCall] }
                : { role: 'assistant', content: answer },
            finish_reason: answer === undefined ? 'tool_calls' : 'stop',
          },
        ],
        usage,
      });
    }
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'local-model-q4',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const events: unknown[] =
      answer === undefined
        ? [
            chunk({
              role: 'assistant',
              tool_calls: [{ index: 0, ...toolCall, function: { name: 'add', arguments: '' } }],
            }),
            chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":2,' } }] }),
            chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }),
            chunk({}, 'tool_calls'),
          ]
        : [chunk({ role: 'assistant', content: 'The sum ' }), chunk({ content: answer.slice(8) }), chunk({}, 'stop')];
    return sendSse(response, [
      ...events.map((data) => ({ data })),
      {
        data: {
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'local-model-q4',
          choices: [],
          usage,
        },
      },
      '[DONE]',
    ]);
  }

  it('runs an agent with a tool-call round trip over HTTP (send and stream)', async () => {
    server.handle(chatServer);
    const provider = fromAISDK(modelFor());
    expect(provider.provider).toBe('loopback');
    const agent = createAgent({ provider, tools: [add] });

    const sent = await agent.send('What is 2 + 3?');
    expect(sent.text).toBe('The sum is 5.');
    expect(sent.usage).toMatchObject({ inputTokens: 50, outputTokens: 10 });
    const body = server.requests[1]?.body as { messages: unknown[]; tools: unknown[] };
    expect(body.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: '5' },
    ]);
    expect(body.tools).toEqual([
      expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'add' }) }),
    ]);

    server.requests.length = 0;
    const run = agent.stream('What is 2 + 3?');
    const deltas: string[] = [];
    for await (const event of run) if (event.type === 'text.delta') deltas.push(event.text);
    const streamed = await run.result;
    expect(streamed.text).toBe('The sum is 5.');
    expect(deltas.join('')).toBe('The sum is 5.');
    expect(streamed.usage).toMatchObject({ inputTokens: 50, outputTokens: 10 });
    expect(server.requests.map((r) => (r.body as { stream?: boolean }).stream)).toEqual([true, true]);
  });

  it('maps the server’s 429 (retry-after) and context-length 400 through the real APICallError', async () => {
    server.handle((_request, response) =>
      sendJson(
        response,
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
    );
    const limited = await rejection(fromAISDK(modelFor(), { retry: { maxRetries: 0 } }).generate(request('hi')));
    expect(limited.code).toBe('LOUSHO_RATE_LIMITED');
    expect(limited.details).toMatchObject({ provider: 'loopback', model: 'local-model', retryAfterMs: 7000 });

    server.requests.length = 0;
    let first = true;
    server.handle((request, response) => {
      if (first) {
        first = false;
        return sendJson(response, 429, { error: { message: 'busy' } }, { 'retry-after-ms': '5' });
      }
      return chatServer(request, response);
    });
    const retried = await fromAISDK(modelFor(), { retry: { maxRetries: 1 } }).generate(request('hi'));
    expect(retried.toolCalls).toEqual([{ id: 'call_abc', name: 'add', arguments: { a: 2, b: 3 } }]);
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    server.handle((_request, response) => sendJson(response, 400, OVERFLOW_BODY));
    const overflow = await rejection(collect(fromAISDK(modelFor()).stream(request('long'))));
    expect(overflow.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(overflow.details).toMatchObject({ limit: 8192, requested: 9000 });
    expect(server.requests).toHaveLength(1);
  });

  it('aborts an HTTP call in flight', async () => {
    server.handle(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = fromAISDK(modelFor()).generate(request('hi', { abortSignal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect((await rejection(pending)).code).toBe('LOUSHO_ABORTED');
  });
});
