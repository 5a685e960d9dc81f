/**
 * Extended thinking through the Anthropic provider, on loopback: the thinking budget asked
 * for, and thinking and redacted_thinking blocks carried back unchanged (signatures and data
 * byte for byte) on the next request of a tool-using turn, from whole and streamed replies.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { type LoopbackServer, sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { readFileTool } from '../test-support/tool-loop-chat.js';
import { createAnthropic } from './anthropic.js';

const serve = useLoopbackServers();

const SIGNATURE = `EqQBCgIYAhIM${'x'.repeat(300)}==`;
const REDACTED = `EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP${'y'.repeat(200)}`;
const THINKING = 'The user wants a.ts. I will read it, then answer.';

const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } };
const message = (n: number, content: unknown[], stop: string) => ({
  id: `msg_${n}`,
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 100, output_tokens: 50 },
});

type Block = Record<string, unknown>;
const bodyOf = (server: LoopbackServer, i: number) =>
  server.requests[i]?.body as {
    thinking?: unknown;
    max_tokens: number;
    messages: { role: string; content: Block[] }[];
  };

describe('Anthropic extended thinking', () => {
  it('asks for the budget, and sends thinking and redacted_thinking back unchanged, first in the turn, never marked for the cache', async () => {
    let n = 0;
    const server = await serve((_request, response) => {
      n++;
      if (n === 1)
        sendJson(
          response,
          200,
          message(
            1,
            [
              { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
              { type: 'redacted_thinking', data: REDACTED },
              toolUse,
            ],
            'tool_use',
          ),
        );
      else sendJson(response, 200, message(2, [{ type: 'text', text: 'a.ts exports ten values.' }], 'end_turn'));
    });
    const result = await createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      tools: [readFileTool(10)],
      reasoning: { budgetTokens: 2_048 },
    }).send('What does a.ts export?');
    expect(bodyOf(server, 0).thinking).toEqual({ type: 'enabled', budget_tokens: 2_048 });
    expect(bodyOf(server, 0).max_tokens).toBe(4_096 + 2_048);
    const assistant = bodyOf(server, 1).messages[1];
    expect(assistant?.role).toBe('assistant');
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      toolUse,
    ]);
    // The transcript keeps them as reasoning parts, with what must come back.
    expect(result.messages[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: THINKING, signature: SIGNATURE, provider: 'anthropic' },
        { type: 'reasoning', text: '', encrypted: REDACTED, provider: 'anthropic' },
      ],
    });
  });

  it('assembles a streamed thinking block from its deltas, reports them as reasoning.delta, and sends it back whole', async () => {
    let n = 0;
    const server = await serve((_request, response) => {
      n++;
      const events =
        n === 1
          ? [
              { type: 'message_start', message: message(1, [], null as unknown as string) },
              {
                type: 'content_block_start',
                index: 0,
                content_block: { type: 'thinking', thinking: '', signature: '' },
              },
              {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'thinking_delta', thinking: 'The user wants a.ts. ' },
              },
              {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'thinking_delta', thinking: 'I will read it, then answer.' },
              },
              {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'signature_delta', signature: SIGNATURE.slice(0, 100) },
              },
              {
                type: 'content_block_delta',
                index: 0,
                delta: { type: 'signature_delta', signature: SIGNATURE.slice(100) },
              },
              { type: 'content_block_stop', index: 0 },
              { type: 'content_block_start', index: 1, content_block: { ...toolUse, input: {} } },
              {
                type: 'content_block_delta',
                index: 1,
                delta: { type: 'input_json_delta', partial_json: '{"path":"a.ts"}' },
              },
              { type: 'content_block_stop', index: 1 },
              { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 80 } },
              { type: 'message_stop' },
            ]
          : [
              { type: 'message_start', message: message(2, [], null as unknown as string) },
              { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
              { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Ten values.' } },
              { type: 'content_block_stop', index: 0 },
              { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
              { type: 'message_stop' },
            ];
      void sendSse(
        response,
        events.map((data) => ({ event: data.type, data })),
      );
    });
    const thoughts: string[] = [];
    await createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      tools: [readFileTool(10)],
      reasoning: { budgetTokens: 1_024 },
      onEvent: (e) => {
        if (e.type === 'reasoning.delta') thoughts.push(e.text);
      },
    }).send('What does a.ts export?');
    expect(thoughts.join('')).toBe(THINKING);
    expect(bodyOf(server, 1).messages[1]?.content).toEqual([
      { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
      toolUse,
    ]);
  });

  it('never sends reasoning another provider wrote, and takes a budget per run', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, message(1, [{ type: 'text', text: 'ok' }], 'end_turn')),
    );
    const history: Message[] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'an OpenAI summary', encrypted: 'gAAAA-openai', provider: 'openai', id: 'rs_1' },
          { type: 'reasoning', text: 'DeepSeek thoughts', provider: 'deepseek' },
          { type: 'text', text: 'Hello.' },
        ],
      },
      { role: 'user', content: 'And now?' },
    ];
    const agent = createAgent({ provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5') });
    await agent.send(history, { reasoning: { budgetTokens: 3_000 } });
    const body = bodyOf(server, 0);
    expect(body.messages[1]?.content).toEqual([{ type: 'text', text: 'Hello.' }]);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3_000 });
  });

  it('refuses a budget that leaves no room for the answer before sending anything', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, message(1, [], 'end_turn')));
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-sonnet-4-5'),
      maxOutputTokens: 2_000,
      reasoning: { budgetTokens: 2_000 },
    });
    const error = await rejection(agent.send('Hi'));
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_INVALID' });
    expect(error.message).toMatch(/maxOutputTokens \(2000\) must be above reasoning\.budgetTokens \(2000\)/);
    expect(server.requests).toHaveLength(0);
  });
});
