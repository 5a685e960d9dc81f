import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { runCli } from '../cli/commands.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { createOpenAICompatible } from '../providers/openai-compatible.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { captureIO } from '../test-support/cli.js';
import { type Handler, type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { ENCODINGS, secretForms } from '../test-support/secret-forms.js';
import { encodedForms, redactText, registerSecret } from './redact.js';

/*
 * An API key echoed back in an encoding the redaction did not know (hex, percent-encoded twice,
 * JSON-escaped, reversed) left the package through the error a run failed with. Eight ways, each
 * with a fresh key and a loopback server that speaks OpenAI's error format and echoes the key it
 * received: the search covers the error's message, stack, causes, JSON and util.inspect, the
 * run's events, its trace spans, a FileSessionStore's files and what the CLI prints for it.
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
    `encoded-echo scenarios: ${leaked.length} of ${SCENARIOS.length} leak${leaked.length ? `: ${leaked.join('; ')}` : ''}`,
  );
});

/** A key with '+', '/' and '=' in it, as Azure-style keys have, so its encodings differ from it. */
const freshKey = () =>
  `${randomBytes(10).toString('hex')}+${randomBytes(6).toString('hex')}/${randomBytes(6).toString('hex')}=`;
const bearer = (r: ReceivedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const echo =
  (encoding: string): Handler =>
  (r, res) =>
    sendJson(res, 401, {
      error: {
        message: `Incorrect API key provided: ${ENCODINGS[encoding]?.(bearer(r))}`,
        type: 'invalid_request_error',
      },
    });
const streamEcho =
  (encoding: string): Handler =>
  (r, res) =>
    sendSse(res, [
      { data: { error: { message: `stream failed for ${ENCODINGS[encoding]?.(bearer(r))}`, type: 'server_error' } } },
    ]);

const provider = (url: string, apiKey: string) =>
  createOpenAICompatible({ name: 'openai', baseURL: `${url}/v1`, apiKey, retry: { maxRetries: 0 } })('gpt-4o');

/** Everything a failed run shows: its error every way it prints, its events, its spans, and the CLI's line. */
async function shown(error: unknown, events: AgentEvent[]): Promise<string[]> {
  const texts = [JSON.stringify(events), inspect(error, { depth: 10 }), JSON.stringify(error)];
  for (let e = error as { message?: string; stack?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    texts.push(String(e.message), String(e.stack));
  for (const span of exporter.getFinishedSpans())
    texts.push(span.name, JSON.stringify(span.attributes), JSON.stringify(span.events), JSON.stringify(span.status));
  const cli = captureIO();
  const dir = await mkdtemp(join(tmpdir(), 'lousho-cli-'));
  await runCli(['run', dir], cli.io, async () => {
    throw error;
  });
  await rm(dir, { recursive: true, force: true });
  return [...texts, ...cli.out, ...cli.err];
}

async function failedRun(handler: Handler, key: string, streamed: boolean): Promise<string[]> {
  exporter.reset();
  const events: AgentEvent[] = [];
  const agent = createAgent({ provider: provider((await serve(handler)).url, key), onEvent: (e) => events.push(e) });
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

/** A session whose turn fails on the echoing server: every file its FileSessionStore wrote. */
async function storedSession(handler: Handler, key: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-redact-'));
  try {
    const agent = createAgent({ provider: provider((await serve(handler)).url, key) });
    const error = await agent
      .session({ id: 's', store: new FileSessionStore({ dir }) })
      .send('hi')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    return [...files.map((f) => readFileSync(join(f.parentPath, f.name), 'utf8')), ...(await shown(error, []))];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SCENARIOS: { name: string; run(key: string): Promise<string[]> }[] = [
  { name: 'hex, lower case', run: (k) => failedRun(echo('hex lower'), k, false) },
  { name: 'hex, upper case', run: (k) => failedRun(echo('hex upper'), k, false) },
  { name: 'percent-encoded twice', run: (k) => failedRun(echo('percent-encoded twice'), k, false) },
  { name: 'JSON-escaped', run: (k) => failedRun(echo('JSON-escaped'), k, false) },
  { name: 'reversed', run: (k) => failedRun(echo('reversed'), k, false) },
  { name: 'hex in a stream error event', run: (k) => failedRun(streamEcho('hex lower'), k, true) },
  {
    name: 'percent-encoded twice, FileSessionStore session',
    run: (k) => storedSession(echo('percent-encoded twice'), k),
  },
  { name: 'hex upper, FileSessionStore session', run: (k) => storedSession(echo('hex upper'), k) },
];

describe('an API key echoed in an encoding', () => {
  it.each(SCENARIOS)('$name: no form of the key is shown anywhere', async ({ name, run }) => {
    const key = freshKey();
    const found = [...new Set((await run(key)).flatMap((text) => secretForms(text, key)))];
    if (found.length > 0) leaked.push(`${name} (${found.join(', ')})`);
    expect(found, name).toEqual([]);
  });
});

describe('encodedForms()', () => {
  it('covers every encoding the suite tries, so redactText() replaces each', () => {
    const key = freshKey();
    registerSecret(key);
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      const text = `said ${encode(key)} here`;
      expect(secretForms(redactText(text), key), name).toEqual([]);
      expect(redactText(text)).toMatch(/^said .+ here$/);
    }
    expect(encodedForms(key)).not.toContain(key);
  });
});
