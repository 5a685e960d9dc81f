/**
 * OpenAI's own compaction, both ways: inside a response (`context_management`, the compaction
 * item in the stream carried back unchanged) and on demand (`compact()`, by hand through
 * compactMessages(), bounded by the request timeout).
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { compactMessages } from '../compaction/compact-messages.js';
import { providerCompactionStrategy } from '../compaction/provider-compaction.js';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { sendJson } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { responsesReplies } from '../test-support/responses-server.js';
import { createOpenAIResponses } from './openai-responses.js';

const MODEL = 'gpt-5-mini';
const serve = useLoopbackServers();
isolateEnv();

const CONTEXT_MANAGEMENT = [{ type: 'compaction', compact_threshold: 200_000 }];

describe('compaction inside a response (contextManagement)', () => {
  it.each(['send', 'stream'] as const)(
    'keeps the compaction item of a reply as a compaction part and sends it back unchanged (%s)',
    async (how) => {
      const server = await serve(
        responsesReplies(MODEL, [
          { compaction: { id: 'cmp_7', encrypted: 'gAAAA-in-stream' }, text: 'Compacted, and here is the answer.' },
          { text: 'Second answer.' },
        ]),
      );
      const provider = createOpenAIResponses({
        baseURL: `${server.url}/v1`,
        apiKey: 'test',
        contextManagement: CONTEXT_MANAGEMENT,
      })(MODEL);
      const session = createAgent({ provider }).session();
      const first = how === 'send' ? await session.send('Go.') : await session.stream('Go.').result;
      expect(first.text).toBe('Compacted, and here is the answer.');
      expect(first.messages.at(-1)).toEqual({
        role: 'assistant',
        content: [
          { type: 'compaction', encrypted: 'gAAAA-in-stream', provider: 'openai', id: 'cmp_7' },
          { type: 'text', text: 'Compacted, and here is the answer.' },
        ],
      });
      await session.send('More.');
      const bodies = server.requests.map((r) => r.body as { input: unknown[]; context_management?: unknown });
      for (const body of bodies) expect(body.context_management).toEqual(CONTEXT_MANAGEMENT);
      expect(bodies[1]?.input).toEqual([
        { type: 'message', role: 'user', content: 'Go.' },
        { type: 'compaction', encrypted_content: 'gAAAA-in-stream', id: 'cmp_7' },
        { type: 'message', role: 'assistant', content: 'Compacted, and here is the answer.' },
        { type: 'message', role: 'user', content: 'More.' },
      ]);
    },
  );
});

describe('compact() (POST /v1/responses/compact)', () => {
  const history: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Plan a trip to Kyoto.' },
    { role: 'assistant', content: 'Day one: Fushimi Inari. '.repeat(200) },
    { role: 'user', content: 'And day two?' },
    { role: 'assistant', content: 'Day two: Arashiyama.' },
    { role: 'user', content: 'Thanks.' },
  ];

  it('compacts a stored transcript by hand through compactMessages() with the strategy given a model', async () => {
    const server = await serve((_r, response) =>
      sendJson(response, 200, {
        id: 'cmp_resp',
        object: 'response.compaction',
        created_at: 1,
        output: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to Kyoto.' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And day two?' }] },
          { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA-kyoto' },
        ],
        usage: { input_tokens: 1200, output_tokens: 250, total_tokens: 1450 },
      }),
    );
    const provider = createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test' })(MODEL);
    const result = await compactMessages(history, {
      model: MODEL,
      protectedTokens: 20,
      strategy: providerCompactionStrategy({ model: provider }),
    });
    expect(result.error).toBeUndefined();
    expect(result.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Plan a trip to Kyoto.' },
      { role: 'user', content: 'And day two?' },
      {
        role: 'assistant',
        content: [{ type: 'compaction', encrypted: 'gAAAA-kyoto', provider: 'openai', id: 'cmp_1' }],
      },
      // The latest assistant turn and what follows it are kept as they are.
      { role: 'assistant', content: 'Day two: Arashiyama.' },
      { role: 'user', content: 'Thanks.' },
    ]);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(server.requests[0]?.body).toEqual({
      model: MODEL,
      instructions: 'Be brief.',
      input: [
        { type: 'message', role: 'user', content: 'Plan a trip to Kyoto.' },
        { type: 'message', role: 'assistant', content: history[2]?.content },
        { type: 'message', role: 'user', content: 'And day two?' },
      ],
    });
  });

  it("compacts a session by hand with the agent's own provider (session.compact())", async () => {
    const server = await serve((request, response) => {
      if (request.path !== '/v1/responses/compact')
        return responsesReplies(MODEL, [{ text: 'Noted. '.repeat(300) }])(request, response);
      return sendJson(response, 200, {
        object: 'response.compaction',
        output: [{ id: 'cmp_2', type: 'compaction', encrypted_content: 'gAAAA-session' }],
        usage: { input_tokens: 700, output_tokens: 40 },
      });
    });
    const provider = createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test' })(MODEL);
    const session = createAgent({ provider }).session();
    await session.send('Remember this.');
    await session.send('And this.');
    const result = await session.compact({ strategy: providerCompactionStrategy(), protectedTokens: 10 });
    expect(result).toMatchObject({ strategy: 'provider-compaction', messagesBefore: 4 });
    expect(result.error).toBeUndefined();
    expect(server.requests.map((r) => r.path)).toContain('/v1/responses/compact');
    expect(session.messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'compaction', encrypted: 'gAAAA-session', provider: 'openai', id: 'cmp_2' }],
    });
  });

  it('ends a compaction that takes longer than requestTimeoutMs, and refuses an answer without a compaction item', async () => {
    const server = await serve(() => {});
    const slow = createOpenAIResponses({
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      requestTimeoutMs: 200,
      retry: { maxRetries: 0 },
    })(MODEL);
    const error = await rejection(slow.compact?.({ model: MODEL, messages: history }) ?? Promise.resolve());
    expect(error).toMatchObject({ code: 'LOUSHO_PROVIDER_TIMEOUT', details: { limit: 'requestTimeoutMs' } });

    server.handle((_r, response) => sendJson(response, 200, { id: 'x', object: 'response.compaction', output: [] }));
    const empty = createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test' })(MODEL);
    const refused = await rejection(empty.compact?.({ model: MODEL, messages: history }) ?? Promise.resolve());
    expect(refused).toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED' });
    expect(refused.message).toContain('without a compaction item');
  });
});
