import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { type Handler, type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { closedPortUrl, isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { createAnthropic } from './anthropic.js';
import { createOpenAICompatible } from './openai-compatible.js';

/*
 * The 28 ways an API key can leave the package, each tried as a user would meet it: a provider
 * echoing the key (literal, URL-encoded, base64, base64url) in an error body or a mid-stream
 * error event, a key in the base URL's userinfo or query, a key in a header, and what a failed
 * run leaves behind (its error, its events, its spans, its stored session and the files' modes).
 * A scenario leaks when the key, or any encoding of it, is found in any of that.
 */

isolateEnv();
const serve = useLoopbackServers();
const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(tracer);
});
const leaked: string[] = [];
afterAll(async () => {
  trace.disable();
  await tracer.shutdown();
  console.log(
    `secret scenarios: leak ${leaked.length} of ${SCENARIOS.length}${leaked.length ? `: ${leaked.join('; ')}` : ''}`,
  );
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** A key whose URL and base64 forms differ from it ('+', '/' and '='), as Azure-style keys have. */
const key = () => `${hex(10)}+${hex(6)}/${hex(6)}=`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const lowerPercent = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** The forms of `secret` found in `text`: literal, URL-encoded (either case), base64 or base64url (inside longer base64 too). */
function secretForms(text: string, secret: string): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  if (text.includes(secret)) found.push('literal');
  if (lower.includes(encodeURIComponent(secret).toLowerCase())) found.push('URL-encoded');
  const core = secret.slice(2, -2);
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
    for (const alphabet of ['base64', 'base64url'] as const) {
      if (Buffer.from(run, alphabet).toString('latin1').includes(core)) found.push(alphabet);
    }
  }
  return [...new Set(found)];
}

/** Everything a failed run shows: the error (message, stack, JSON, inspect, causes), the events, and the spans. */
function shown(error: unknown, events: AgentEvent[]): string[] {
  const texts = [JSON.stringify(events), inspect(error, { depth: 10 }), JSON.stringify(error)];
  for (let e = error as { message?: string; stack?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    texts.push(String(e.message), String(e.stack));
  for (const span of exporter.getFinishedSpans())
    texts.push(span.name, JSON.stringify(span.attributes), JSON.stringify(span.events), JSON.stringify(span.status));
  return texts;
}

/** Runs an agent on `provider` (streamed or not) to its failure, and returns what it showed. */
async function failedRun(provider: LLMProvider, streamed = false): Promise<string[]> {
  exporter.reset();
  const events: AgentEvent[] = [];
  const agent = createAgent({ provider, onEvent: (e) => events.push(e) });
  let error: unknown;
  try {
    if (streamed) {
      const stream = agent.stream('hi');
      for await (const _ of stream) {
        // events
      }
      await stream.result;
    } else await agent.send('hi');
  } catch (e) {
    error = e;
  }
  expect(error, 'the run must fail').toBeDefined();
  return shown(error, events);
}

const noRetry = { retry: { maxRetries: 0 } };
const openai = (baseURL: string, apiKey: string | undefined, extra: object = {}) =>
  createOpenAICompatible({ name: 'openai', baseURL, ...(apiKey ? { apiKey } : {}), ...noRetry, ...extra })('gpt-4o');
const anthropic = (baseURL: string, apiKey: string, extra: object = {}) =>
  createAnthropic({ baseURL, apiKey, ...noRetry, ...extra })('claude-sonnet-4-5');

const openAIBody = (message: string) => ({ error: { message, type: 'invalid_request_error', code: null } });
const anthropicBody = (message: string) => ({ type: 'error', error: { type: 'invalid_request_error', message } });
const echoOpenAI =
  (status: number, say: (r: ReceivedRequest) => string): Handler =>
  (r, res) =>
    sendJson(res, status, openAIBody(say(r)));
const echoAnthropic =
  (status: number, say: (r: ReceivedRequest) => string): Handler =>
  (r, res) =>
    sendJson(res, status, anthropicBody(say(r)));
const bearer = (r: ReceivedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');
/** The key the Anthropic client sent: x-api-key, or a bearer token (as this SDK version sends it). */
const xKey = (r: ReceivedRequest) => String(r.headers['x-api-key'] ?? bearer(r));
/** An OpenAI stream that sends one chunk and then an error event quoting `say(request)`. */
const openAIStreamError =
  (say: (r: ReceivedRequest) => string): Handler =>
  (r, res) =>
    sendSse(res, [
      {
        data: {
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { content: 'Hi' } }],
        },
      },
      { data: { error: { message: say(r), type: 'server_error' } } },
    ]);
/** An Anthropic stream whose message_start is followed by an error event quoting `say(request)`. */
const anthropicStreamError =
  (say: (r: ReceivedRequest) => string): Handler =>
  (r, res) =>
    sendSse(res, [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [],
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        },
      },
      { event: 'error', data: { type: 'error', error: { type: 'api_error', message: say(r) } } },
    ]);

interface Scenario {
  name: string;
  /** Tries it with a fresh key and returns the texts to search for that key. */
  run(key: string): Promise<string[]>;
}

const viaOpenAI =
  (handler: Handler, streamed = false) =>
  async (k: string) =>
    failedRun(openai(`${(await serve(handler)).url}/v1`, k), streamed);
const viaAnthropic =
  (handler: Handler, streamed = false) =>
  async (k: string) =>
    failedRun(anthropic((await serve(handler)).url, k), streamed);

/** A session whose turn fails on a server echoing the key; returns every file its store wrote, and their modes. */
async function storedSession(k: string, what: 'content' | 'modes'): Promise<string[]> {
  const server = await serve(echoOpenAI(401, (r) => `Incorrect API key provided: ${bearer(r)} (${b64(bearer(r))})`));
  const dir = await mkdtemp(join(tmpdir(), 'lousho-secret-'));
  try {
    const agent = createAgent({ provider: openai(`${server.url}/v1`, k) });
    await agent
      .session({ id: 's', store: new FileSessionStore({ dir }) })
      .send('hi')
      .catch(() => undefined);
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    if (what === 'content') return files.map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'));
    // A file others can read is a leak of what it holds: report it with the key so the search finds it.
    return files
      .filter((f) => (statSync(join(f.parentPath, f.name)).mode & 0o077) !== 0)
      .map((f) => `${f.name} is readable by others: ${k}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SCENARIOS: Scenario[] = [
  {
    name: 'literal echo, OpenAI 401',
    run: viaOpenAI(echoOpenAI(401, (r) => `Incorrect API key provided: ${bearer(r)}.`)),
  },
  {
    name: 'literal echo, Anthropic 401',
    run: viaAnthropic(echoAnthropic(401, (r) => `invalid x-api-key: ${xKey(r)}`)),
  },
  { name: 'literal echo, OpenAI 500', run: viaOpenAI(echoOpenAI(500, (r) => `error for ${bearer(r)}`)) },
  {
    name: 'URL-encoded echo, OpenAI 401',
    run: viaOpenAI(echoOpenAI(401, (r) => `bad key ${encodeURIComponent(bearer(r))}`)),
  },
  {
    name: 'URL-encoded echo, Anthropic 401',
    run: viaAnthropic(echoAnthropic(401, (r) => `bad ${encodeURIComponent(xKey(r))}`)),
  },
  {
    name: 'URL-encoded echo in a query, OpenAI 400',
    run: viaOpenAI(echoOpenAI(400, (r) => `GET /v1/x?key=${encodeURIComponent(bearer(r))}&a=1 refused`)),
  },
  {
    name: 'URL-encoded echo, lower-case escapes, OpenAI 429',
    run: viaOpenAI(echoOpenAI(429, (r) => `slow down ${lowerPercent(bearer(r))}`)),
  },
  {
    name: 'URL-encoded echo in a mid-stream error, OpenAI',
    run: viaOpenAI(
      openAIStreamError((r) => `oops ${encodeURIComponent(bearer(r))}`),
      true,
    ),
  },
  {
    name: 'URL-encoded echo in a mid-stream error, Anthropic',
    run: viaAnthropic(
      anthropicStreamError((r) => `oops ${encodeURIComponent(xKey(r))}`),
      true,
    ),
  },
  {
    name: 'base64 echo of Basic user:key, OpenAI',
    run: viaOpenAI(echoOpenAI(401, (r) => `Basic ${b64(`user:${bearer(r)}`)} rejected`)),
  },
  {
    name: 'base64 echo of the key, Anthropic',
    run: viaAnthropic(echoAnthropic(401, (r) => `token ${b64(xKey(r))} rejected`)),
  },
  {
    name: 'base64 echo inside a JSON blob, OpenAI',
    run: viaOpenAI(
      echoOpenAI(400, (r) => `ctx=${b64(JSON.stringify({ authorization: `Bearer ${bearer(r)}`, n: 1 }))}`),
    ),
  },
  { name: 'base64url echo, OpenAI', run: viaOpenAI(echoOpenAI(403, (r) => `token=${b64url(bearer(r))}`)) },
  {
    name: 'base64url echo, Anthropic',
    run: viaAnthropic(echoAnthropic(403, (r) => `token=${b64url(`k:${xKey(r)}`)}`)),
  },
  {
    name: "key in the base URL's userinfo, server unreachable",
    run: async (k) =>
      failedRun(openai(`${(await closedPortUrl()).replace('//', `//user:${encodeURIComponent(k)}@`)}/v1`, undefined)),
  },
  {
    name: "key in the base URL's userinfo, server echoes the URL",
    run: async (k) => {
      const server = await serve(
        echoOpenAI(404, (r) => `no route ${r.path} on http://user:${encodeURIComponent(k)}@host`),
      );
      return failedRun(openai(`${server.url.replace('//', `//user:${encodeURIComponent(k)}@`)}/v1`, undefined));
    },
  },
  {
    name: "key in the base URL's query, server unreachable",
    run: async (k) => failedRun(openai(`${await closedPortUrl()}/v1?api-key=${encodeURIComponent(k)}`, undefined)),
  },
  {
    name: "key in the base URL's query, server echoes its path",
    run: async (k) => {
      const server = await serve(echoOpenAI(404, (r) => `no route ${r.path}`));
      return failedRun(openai(`${server.url}/v1?api-key=${encodeURIComponent(k)}`, undefined));
    },
  },
  {
    name: 'key in an api-key header, echoed',
    run: async (k) => {
      const server = await serve(echoOpenAI(401, (r) => `bad api-key ${String(r.headers['api-key'])}`));
      return failedRun(openai(`${server.url}/v1`, undefined, { headers: { 'api-key': k } }));
    },
  },
  {
    name: 'key in an Authorization header option, echoed URL-encoded',
    run: async (k) => {
      const server = await serve(echoOpenAI(401, (r) => `bad ${encodeURIComponent(bearer(r))}`));
      return failedRun(openai(`${server.url}/v1`, undefined, { headers: { authorization: `Bearer ${k}` } }));
    },
  },
  {
    name: 'key in an x-api-key header option of Anthropic, echoed in base64',
    run: async (k) => failedRun(anthropic((await serve(echoAnthropic(401, (r) => `bad ${b64(xKey(r))}`))).url, k)),
  },
  {
    name: 'literal echo in a mid-stream error, OpenAI',
    run: viaOpenAI(
      openAIStreamError((r) => `oops ${bearer(r)}`),
      true,
    ),
  },
  {
    name: 'literal echo in a mid-stream error, Anthropic',
    run: viaAnthropic(
      anthropicStreamError((r) => `oops ${xKey(r)}`),
      true,
    ),
  },
  {
    name: 'run.error event and spans of a streamed run, literal echo',
    run: viaOpenAI(
      echoOpenAI(401, (r) => `key ${bearer(r)}`),
      true,
    ),
  },
  {
    name: 'span attributes of a run whose provider echoes base64url',
    run: async (k) => {
      const texts = await viaAnthropic(echoAnthropic(500, (r) => `trace ${b64url(xKey(r))}`))(k);
      return exporter.getFinishedSpans().length > 0 ? texts : [`no span was recorded to check: ${k}`];
    },
  },
  { name: 'stored session of a failed turn (file store contents)', run: (k) => storedSession(k, 'content') },
  { name: 'file modes of the stored session', run: (k) => storedSession(k, 'modes') },
  {
    name: 'MCP HTTP server header, server rejects and echoes it',
    run: async (k) => {
      const server = await serve((r, res) => {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end(
          `unauthorized: ${String(r.headers.authorization)} ${encodeURIComponent(String(r.headers.authorization))}`,
        );
      });
      const events: AgentEvent[] = [];
      exporter.reset();
      const agent = createAgent({
        provider: openai(`${server.url}/v1`, undefined),
        mcpServers: [{ name: 'remote', url: `${server.url}/mcp`, headers: { authorization: `Bearer ${k}` } }],
        onEvent: (e) => events.push(e),
      });
      const error = await agent.send('hi').then(
        () => undefined,
        (e: unknown) => e,
      );
      await agent.close();
      expect(error).toBeDefined();
      return shown(error, events);
    },
  },
];

describe('the key in 28 scenarios', () => {
  it('has 28 scenarios', () => {
    expect(SCENARIOS).toHaveLength(28);
  });

  it.each(SCENARIOS)('$name: no form of the key leaves', async ({ name, run }) => {
    const k = key();
    const texts = await run(k);
    const forms = [...new Set(texts.flatMap((t) => secretForms(t, k)))];
    if (forms.length > 0) leaked.push(`${name} (${forms.join(', ')})`);
    expect(forms).toEqual([]);
  });
});
