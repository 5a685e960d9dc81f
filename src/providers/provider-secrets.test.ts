import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { createOpenAICompatible as createAISDKCompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import { type ReceivedRequest, sendJson } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { fromAISDK } from './ai-sdk.js';
import { createAnthropic } from './anthropic.js';
import { createLMStudio, createOllama, createOpenAI, createOpenRouter } from './builtin.js';
import { createOpenAICompatible } from './openai-compatible.js';
import { createOpenAIResponses } from './openai-responses.js';

/*
 * An API key never leaves the package in an error, even when the provider echoes it back
 * in its error body: each provider path below talks to a loopback server that answers
 * with the key the client sent (Authorization or x-api-key) inside its error message.
 */

isolateEnv();
const serve = useLoopbackServers();
afterEach(() => {
  vi.unstubAllEnvs();
});

const KINDS = ['401', '400', '429', '500', 'overflow'] as const;
type Kind = (typeof KINDS)[number];

/** The key the client sent, read from the request headers as a server would. */
function sentKey(request: ReceivedRequest): string {
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const header = request.headers['x-api-key'];
  return typeof header === 'string' ? header : 'no key sent';
}

/** An OpenAI-style error body that quotes the key, as OpenAI's own 401 does ("Incorrect API key provided: sk-..."). */
function openAIError(kind: Kind, key: string): { status: number; body: unknown } {
  const error = (message: string, type: string, code: string | null) => ({ error: { message, type, code } });
  switch (kind) {
    case '401':
      return {
        status: 401,
        body: error(`Incorrect API key provided: ${key}.`, 'invalid_request_error', 'invalid_api_key'),
      };
    case '400':
      return {
        status: 400,
        body: error(`Invalid 'temperature' in a request made with ${key}.`, 'invalid_request_error', null),
      };
    case '429':
      return {
        status: 429,
        body: error(`Rate limit reached for key ${key} on tokens per min.`, 'tokens', 'rate_limit_exceeded'),
      };
    case '500':
      return {
        status: 500,
        body: error(`The server had an error processing the request of ${key}.`, 'server_error', null),
      };
    case 'overflow':
      return {
        status: 400,
        body: error(
          `This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens (key ${key}).`,
          'invalid_request_error',
          'context_length_exceeded',
        ),
      };
  }
}

/** An Anthropic Messages API error body that quotes the key. */
function anthropicError(kind: Kind, key: string): { status: number; body: unknown } {
  const error = (type: string, message: string) => ({ type: 'error', error: { type, message } });
  switch (kind) {
    case '401':
      return { status: 401, body: error('authentication_error', `invalid x-api-key: ${key}`) };
    case '400':
      return { status: 400, body: error('invalid_request_error', `temperature: out of range for ${key}`) };
    case '429':
      return {
        status: 429,
        body: error('rate_limit_error', `Number of request tokens has exceeded your rate limit (${key}).`),
      };
    case '500':
      return { status: 500, body: error('api_error', `Internal server error for ${key}`) };
    case 'overflow':
      return {
        status: 400,
        body: error('invalid_request_error', `prompt is too long: 9000 tokens > 8192 maximum (${key})`),
      };
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const noRetry = { retry: { maxRetries: 0 } };

interface ProviderPath {
  name: string;
  wire: 'openai' | 'anthropic';
  /** A fresh key in the vendor's own format (some match no known key shape: only the registry can find them). */
  key: () => string;
  provider: (url: string, key: string) => LLMProvider;
}

const PATHS: ProviderPath[] = [
  {
    name: 'OpenAI (key from OPENAI_API_KEY)',
    wire: 'openai',
    key: () => `sk-proj-${hex(24)}`,
    provider: (url, key) => {
      vi.stubEnv('OPENAI_API_KEY', key);
      return createOpenAI({ baseURL: `${url}/v1`, ...noRetry })('gpt-4o');
    },
  },
  {
    name: 'OpenAI Responses API (key from OPENAI_API_KEY)',
    wire: 'openai',
    key: () => `sk-proj-${hex(24)}`,
    provider: (url, key) => {
      vi.stubEnv('OPENAI_API_KEY', key);
      return createOpenAIResponses({ baseURL: `${url}/v1`, ...noRetry })('gpt-5-mini');
    },
  },
  {
    name: 'OpenRouter (apiKey option)',
    wire: 'openai',
    key: () => `sk-or-v1-${hex(32)}`,
    provider: (url, key) => createOpenRouter({ baseURL: `${url}/v1`, apiKey: key, ...noRetry })('openai/gpt-4o-mini'),
  },
  {
    name: 'Ollama with a key',
    wire: 'openai',
    key: () => `ollama_${hex(16)}`,
    provider: (url, key) => createOllama({ host: url, apiKey: key, ...noRetry })('qwen3:8b'),
  },
  {
    name: 'LM Studio with a key',
    wire: 'openai',
    key: () => `lmstudio-${hex(16)}`,
    provider: (url, key) => createLMStudio({ baseURL: `${url}/v1`, apiKey: key, ...noRetry })('qwen2.5-7b-instruct'),
  },
  {
    name: 'OpenAI-compatible (key from its apiKeyEnv)',
    wire: 'openai',
    key: () => hex(20),
    provider: (url, key) => {
      vi.stubEnv('VLLM_TOKEN', key);
      return createOpenAICompatible({ name: 'vllm', baseURL: `${url}/v1`, apiKeyEnv: 'VLLM_TOKEN', ...noRetry })('m');
    },
  },
  {
    name: 'Anthropic (key from ANTHROPIC_API_KEY)',
    wire: 'anthropic',
    key: () => `sk-ant-api03-${hex(32)}`,
    provider: (url, key) => {
      vi.stubEnv('ANTHROPIC_API_KEY', key);
      return createAnthropic({ baseURL: url, ...noRetry })('claude-sonnet-4-5');
    },
  },
  {
    name: 'AI SDK adapter (key given to the AI SDK provider)',
    wire: 'openai',
    key: () => `sk-proj-${hex(24)}`,
    provider: (url, key) =>
      fromAISDK(createAISDKCompatible({ name: 'loopback', baseURL: `${url}/v1`, apiKey: key }).chatModel('m'), noRetry),
  },
];

/** Every place an error shows text: message, stack, each cause's message and stack, its JSON, and what a logger prints. */
function leaks(error: unknown, key: string): string[] {
  const found: string[] = [];
  const check = (where: string, text: unknown) => {
    if (typeof text === 'string' && text.includes(key)) found.push(where);
  };
  check('JSON.stringify(error)', JSON.stringify(error));
  if (LoushoError.isInstance(error)) check('toJSON()', JSON.stringify(error.toJSON()));
  check('inspect(error)', inspect(error, { depth: 10 }));
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    const e = current as { message?: unknown; stack?: unknown; cause?: unknown };
    const where = depth === 0 ? 'error' : `cause ${depth}`;
    check(`${where}.message`, e.message);
    check(`${where}.stack`, e.stack);
    check(`JSON.stringify(${where})`, JSON.stringify(current));
    current = e.cause;
  }
  return found;
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

async function drain(parts: AsyncIterable<ModelStreamPart>): Promise<void> {
  for await (const _ of parts) {
    // the first part never comes: the server answers with an error
  }
}

describe.each(PATHS)('$name', (path) => {
  it.each(KINDS)('keeps the key out of a %s error, its causes and the run.error event', async (kind) => {
    const key = path.key();
    const server = await serve((request, response) => {
      const answer = (path.wire === 'anthropic' ? anthropicError : openAIError)(kind, sentKey(request));
      sendJson(response, answer.status, answer.body);
    });
    const provider = path.provider(server.url, key);
    const request = { model: provider.modelId, messages: [{ role: 'user' as const, content: 'hi' }] };

    const generated = await failure(() => provider.generate(request));
    const streamed = await failure(() => drain(provider.stream(request)));
    const events: AgentEvent[] = [];
    const agent = createAgent({ provider, onEvent: (event) => events.push(event) });
    const ran = await failure(() => agent.send('hi'));

    // The server did receive the key and echoed it: the test would see any copy of it.
    const calls = server.requests.filter((r) => /\/(chat\/completions|messages|responses)$/.test(r.path));
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.every((r) => sentKey(r) === key)).toBe(true);
    expect(LoushoError.isInstance(generated)).toBe(true);
    expect(events.some((e) => e.type === 'run.error')).toBe(true);
    expect({
      generate: leaks(generated, key),
      stream: leaks(streamed, key),
      run: leaks(ran, key),
      events: JSON.stringify(events).includes(key),
    }).toEqual({ generate: [], stream: [], run: [], events: false });
    // What the provider said is still there, with the key shortened to its prefix and last 4 characters.
    expect((generated as Error).message).toContain(`...${key.slice(-4)}`);
  });
});
