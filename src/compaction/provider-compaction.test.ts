/**
 * providerCompactionStrategy() on loopback stand-ins of both vendors: OpenAI's
 * /v1/responses/compact and Anthropic's on-demand compaction, inside an agent run, with the
 * request bodies of the compaction and of the step after it checked; and its fallback.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { pinMessage } from '../messages/pin.js';
import { OPAQUE_COMPACTION_TOKENS } from '../models/provider-billing.js';
import { createAnthropic } from '../providers/anthropic.js';
import { createOpenAIResponses } from '../providers/openai-responses.js';
import { type AnthropicTestMessage, sendAnthropicMessage } from '../test-support/anthropic-sse.js';
import { type ReceivedRequest, sendJson } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { responsesReplies } from '../test-support/responses-server.js';
import { mockModel } from '../testing/mock-model.js';
import type { CompactionInfo } from './compaction-report.js';
import { providerCompactionStrategy } from './provider-compaction.js';
import { twoPhaseStrategy } from './two-phase.js';

const serve = useLoopbackServers();
isolateEnv();

/** A tool whose every result is 800 tokens, so the third request is over a 3,000-token window's threshold. */
const READ = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }: Record<string, unknown>) =>
    Array.from({ length: 200 }, (_, i) => `${String(path)}-line${i}`).join(' '),
};
const SYSTEM = 'You read files.';

/** Two calls of `read`, then an answer: the compaction happens before the third model call. */
function agentWith(provider: LLMProvider, strategy = providerCompactionStrategy()) {
  const events: AgentEvent[] = [];
  const infos: CompactionInfo[] = [];
  const agent = createAgent({
    provider,
    instructions: SYSTEM,
    tools: [READ],
    compaction: {
      strategy,
      contextWindow: 3_000,
      thresholdPercent: 0.5,
      protectedTokens: 200,
      onCompaction: (i) => infos.push(i),
    },
    onEvent: (e) => events.push(e),
  });
  return { agent, events, infos };
}

/** The JSON body of a request the server received. */
const bodyOf = <T>(request: ReceivedRequest | undefined): T => (request?.body ?? {}) as T;

const compactionEvents = (events: AgentEvent[]) => events.filter((e) => e.type.startsWith('compaction.'));

describe('providerCompactionStrategy() with the OpenAI Responses API', () => {
  const MODEL = 'gpt-5-mini';
  function server(compact: (request: ReceivedRequest, response: ServerResponse) => void) {
    const replies = responsesReplies(MODEL, [
      { calls: [{ id: 'call_1', name: 'read', args: '{"path":"a.ts"}' }] },
      { calls: [{ id: 'call_2', name: 'read', args: '{"path":"b.ts"}' }] },
      { text: 'Both files read.' },
    ]);
    return serve((request, response) =>
      request.path === '/v1/responses/compact' ? compact(request, response) : replies(request, response),
    );
  }
  const make = (url: string) => createOpenAIResponses({ baseURL: `${url}/v1`, apiKey: 'test' })(MODEL);
  const COMPACTED = {
    id: 'cmp_resp_1',
    object: 'response.compaction',
    created_at: 1,
    output: [
      {
        id: 'msg_u1',
        type: 'message',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: 'Read a.ts and b.ts.' }],
      },
      { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA-compacted' },
    ],
    usage: {
      input_tokens: 900,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 120,
      output_tokens_details: { reasoning_tokens: 80 },
      total_tokens: 1020,
    },
  };

  it('sends the turns before the tail to /responses/compact and continues from the window it returns', async () => {
    const s = await server((_r, response) => sendJson(response, 200, COMPACTED));
    const { agent, events, infos } = agentWith(make(s.url));
    const result = await agent.send('Read a.ts and b.ts.');
    expect(result.text).toBe('Both files read.');

    const paths = s.requests.map((r) => r.path);
    expect(paths).toEqual(['/v1/responses', '/v1/responses', '/v1/responses/compact', '/v1/responses']);
    const compact = s.requests[2]?.body as Record<string, unknown>;
    expect(compact).toEqual({
      model: MODEL,
      instructions: SYSTEM,
      input: [
        { type: 'message', role: 'user', content: 'Read a.ts and b.ts.' },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a.ts"}' },
        { type: 'function_call_output', call_id: 'call_1', output: READ.execute({ path: 'a.ts' }) },
      ],
      prompt_cache_key: bodyOf<{ prompt_cache_key: string }>(s.requests[0]).prompt_cache_key,
    });
    const next = s.requests[3]?.body as { input: unknown[] };
    expect(next.input).toEqual([
      { type: 'message', role: 'system', content: SYSTEM },
      { type: 'message', role: 'user', content: 'Read a.ts and b.ts.' },
      { type: 'compaction', encrypted_content: 'gAAAA-compacted', id: 'cmp_1' },
      { type: 'function_call', call_id: 'call_2', name: 'read', arguments: '{"path":"b.ts"}' },
      { type: 'function_call_output', call_id: 'call_2', output: READ.execute({ path: 'b.ts' }) },
    ]);

    const [start, done] = compactionEvents(events);
    expect(start).toMatchObject({ type: 'compaction.start', strategy: 'provider-compaction' });
    expect(done).toMatchObject({
      type: 'compaction.done',
      strategy: 'provider-compaction',
      summary: true,
      prunedToolCallIds: [],
    });
    expect(done).not.toHaveProperty('error');
    if (done?.type !== 'compaction.done') throw new Error('no compaction.done');
    // The first result is gone; the encrypted compaction item that replaces it is counted as OpenAI bills one.
    expect(done.tokensBefore - done.tokensAfter).toBeGreaterThan(750 - OPAQUE_COMPACTION_TOKENS);
    expect(infos).toMatchObject([{ strategy: 'provider-compaction', summary: '' }]);
    const call = result.usage.modelCalls.find((c) => c.purpose === 'compaction');
    expect(call).toMatchObject({
      provider: 'openai',
      model: MODEL,
      usage: { inputTokens: 900, outputTokens: 120, reasoningTokens: 80 },
    });
  });

  it('runs the fallback, and reports why, when the compaction call fails', async () => {
    const s = await server((_r, response) => sendJson(response, 500, { error: { message: 'compaction is down' } }));
    const provider = createOpenAIResponses({ baseURL: `${s.url}/v1`, apiKey: 'test', retry: { maxRetries: 0 } })(MODEL);
    const { agent, events, infos } = agentWith(provider);
    expect((await agent.send('Read a.ts and b.ts.')).text).toBe('Both files read.');
    const done = compactionEvents(events).find((e) => e.type === 'compaction.done');
    expect(done).toMatchObject({
      strategy: 'provider-compaction',
      appliedStrategy: 'prune-tool-results',
      prunedToolCallIds: ['call_1'],
    });
    expect(infos[0]?.error?.message).toContain('compaction is down');
    const next = s.requests.at(-1)?.body as { input: { type: string; output?: string }[] };
    expect(next.input.find((i) => i.type === 'function_call_output')?.output).toMatch(/^\[pruned: read/);
  });
});

describe('providerCompactionStrategy() with Anthropic on-demand compaction', () => {
  const MODEL = 'claude-sonnet-4-6';
  const SUMMARY = 'The user asked to read a.ts and b.ts; a.ts was read.';
  const message = (
    content: Record<string, unknown>[],
    stop: string,
    usage: Record<string, unknown> = { input_tokens: 50, output_tokens: 10 },
  ): AnthropicTestMessage => ({ model: MODEL, content, stop_reason: stop, usage });
  function server(compaction: (response: ServerResponse) => void) {
    let n = 0;
    return serve((request, response) => {
      const body = request.body as { compaction?: unknown; stream?: boolean };
      if (body.compaction !== undefined) return compaction(response);
      n++;
      const input = { path: n === 1 ? 'a.ts' : 'b.ts' };
      const reply =
        n <= 2
          ? message([{ type: 'tool_use', id: `toolu_${n}`, name: 'read', input }], 'tool_use')
          : message([{ type: 'text', text: 'Both files read.' }], 'end_turn');
      return sendAnthropicMessage(response, body.stream === true, reply);
    });
  }
  const make = (url: string) =>
    createAnthropic({
      baseURL: url,
      apiKey: 'test',
      retry: { maxRetries: 0 },
      headers: { 'anthropic-beta': 'files-api-2025-04-14' },
    })(MODEL);

  it('asks for a compaction block, puts it first, and sends it back with its signature and beta header', async () => {
    const s = await server((response) =>
      sendAnthropicMessage(
        response,
        false,
        message([{ type: 'compaction', content: SUMMARY, signature: 'EuYBCkQY-sig' }], 'compaction', {
          input_tokens: 0,
          output_tokens: 0,
          iterations: [{ type: 'compaction', input_tokens: 1444, output_tokens: 76 }],
        }),
      ),
    );
    const { agent, events, infos } = agentWith(make(s.url));
    const result = await agent.send('Read a.ts and b.ts.');
    expect(result.text).toBe('Both files read.');
    expect(result.usage.modelCalls.find((c) => c.purpose === 'compaction')?.usage).toMatchObject({
      inputTokens: 1444,
      outputTokens: 76,
    });
    expect(s.requests).toHaveLength(4);
    const [first, , compact, next] = s.requests;
    const body = compact?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: MODEL,
      compaction: { type: 'summarize' },
      system: expect.anything(),
      tools: expect.any(Array),
    });
    expect(body).not.toHaveProperty('context_management');
    expect((body.messages as unknown[]).length).toBe(3);
    expect(compact?.headers['anthropic-beta']).toBe('files-api-2025-04-14,compact-2026-09-04');
    expect(first?.headers['anthropic-beta']).toBe('files-api-2025-04-14');
    expect(next?.headers['anthropic-beta']).toBe('files-api-2025-04-14,compact-2026-09-04');
    const messages = bodyOf<{ messages: { role: string; content: Record<string, unknown>[] }[] }>(next).messages;
    expect(messages[0]?.role).toBe('assistant');
    expect(messages[0]?.content[0]).toMatchObject({ type: 'compaction', content: SUMMARY, signature: 'EuYBCkQY-sig' });
    expect(messages[0]?.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_2' });
    expect(JSON.stringify(messages)).not.toContain('a.ts-line1 ');

    expect(compactionEvents(events).at(-1)).toMatchObject({ strategy: 'provider-compaction', summary: true });
    expect(infos).toMatchObject([{ strategy: 'provider-compaction', summary: SUMMARY }]);
  });

  it('keeps the transcript and falls back when no summary comes back (stop_reason max_tokens)', async () => {
    const s = await server((response) => sendAnthropicMessage(response, false, message([], 'max_tokens')));
    const fallback = twoPhaseStrategy({ model: mockModel(() => 'Short summary.') });
    const { agent, events, infos } = agentWith(
      make(s.url),
      providerCompactionStrategy({ fallback, maxSummaryTokens: 2_000 }),
    );
    expect((await agent.send('Read a.ts and b.ts.')).text).toBe('Both files read.');
    expect(bodyOf<{ max_tokens: number }>(s.requests[2]).max_tokens).toBe(2_000);
    expect(infos[0]?.error?.message).toMatch(/wrote no compaction \(stop_reason max_tokens\)/);
    expect(compactionEvents(events).at(-1)).toMatchObject({
      strategy: 'provider-compaction',
      appliedStrategy: 'prune-tool-results',
    });
  });
});

describe('providerCompactionStrategy() where the provider cannot compact', () => {
  it('runs the fallback for a provider without compact() and when a pinned message comes first', async () => {
    const script = () =>
      mockModel([
        { toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'a.ts' } }] },
        { toolCalls: [{ id: 'c2', name: 'read', arguments: { path: 'b.ts' } }] },
        'done',
      ]);
    const plain = agentWith(script());
    await plain.agent.send('Read a.ts and b.ts.');
    expect(plain.infos).toMatchObject([
      { strategy: 'provider-compaction', appliedStrategy: 'prune-tool-results', prunedToolCallIds: ['c1'] },
    ]);

    let compacted = 0;
    const compacting = {
      ...script(),
      compact: async () => {
        compacted++;
        throw new Error('not expected');
      },
    };
    const pinned = agentWith(compacting);
    await pinned.agent.send([
      pinMessage({ role: 'user', content: 'Remember: answer briefly.' }),
      { role: 'user', content: 'Read a.ts and b.ts.' },
    ]);
    expect(compacted).toBe(0);
    expect(pinned.infos).toMatchObject([{ appliedStrategy: 'prune-tool-results', prunedToolCallIds: ['c1'] }]);
  });
});
