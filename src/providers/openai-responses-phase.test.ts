/**
 * The Responses API's `phase` (gpt-5.3-codex and later: an output message is 'commentary', the
 * progress notes written between tool calls, or 'final_answer'), on loopback: each message is a
 * part with its phase, result.text is the final answer, and the phases go back as they came;
 * and `prompt_cache_retention` as an option. The items are constructed in the shape of OpenAI's
 * Responses API reference (an output message's `phase`; the request's `prompt_cache_retention`,
 * 'in_memory' or '24h').
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { type LoopbackServer, sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createOpenAI } from './builtin.js';
import { createOpenAIResponses } from './openai-responses.js';

const serve = useLoopbackServers();

const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
const message = (id: string, phase: string, text: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  status: 'completed',
  phase,
  content: [{ type: 'output_text', text, annotations: [] }],
});
const COMMENTARY = message('msg_1', 'commentary', 'Looking at the files first.');
const ANSWER = message('msg_2', 'final_answer', 'The tests pass.');
const response = (output: unknown[]) => ({
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  model: 'gpt-5.3-codex',
  output,
  usage,
});

const inputOf = (server: LoopbackServer, i: number) =>
  (server.requests[i]?.body as { input: Record<string, unknown>[] } | undefined)?.input ?? [];

describe('Responses phase', () => {
  it('keeps commentary and the final answer as parts with their phase, result.text the answer, and sends both back', async () => {
    const server = await serve((_request, res) => sendJson(res, 200, response([COMMENTARY, ANSWER])));
    const agent = createAgent({
      provider: createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5.3-codex'),
    });
    const first = await agent.send('Do the tests pass?');
    expect(first.text).toBe('The tests pass.');
    expect(first.messages[1]?.content).toEqual([
      { type: 'text', text: 'Looking at the files first.', phase: 'commentary' },
      { type: 'text', text: 'The tests pass.', phase: 'final_answer' },
    ]);
    await agent.send([...first.messages, { role: 'user', content: 'Thanks.' }]);
    expect(inputOf(server, 1).filter((item) => item.role === 'assistant')).toEqual([
      { type: 'message', role: 'assistant', content: 'Looking at the files first.', phase: 'commentary' },
      { type: 'message', role: 'assistant', content: 'The tests pass.', phase: 'final_answer' },
    ]);
  });

  it('streams only the final answer as text, the commentary as a part of its own, and sends the phases back', async () => {
    const events = [
      { type: 'response.created', response: { id: 'resp_1', model: 'gpt-5.3-codex' } },
      { type: 'response.output_item.added', output_index: 0, item: { ...COMMENTARY, content: [] } },
      { type: 'response.output_text.delta', item_id: 'msg_1', delta: 'Looking at the files first.' },
      { type: 'response.output_item.done', output_index: 0, item: COMMENTARY },
      { type: 'response.output_item.added', output_index: 1, item: { ...ANSWER, content: [] } },
      { type: 'response.output_text.delta', item_id: 'msg_2', delta: 'The tests ' },
      { type: 'response.output_text.delta', item_id: 'msg_2', delta: 'pass.' },
      { type: 'response.output_item.done', output_index: 1, item: ANSWER },
      { type: 'response.completed', response: response([COMMENTARY, ANSWER]) },
    ];
    const server = await serve((_request, res) =>
      sendSse(
        res,
        events.map((data) => ({ event: data.type, data })),
      ),
    );
    const deltas: string[] = [];
    const agent = createAgent({
      provider: createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5.3-codex'),
      onEvent: (e: AgentEvent) => {
        if (e.type === 'text.delta') deltas.push(e.text);
      },
    });
    const first = await agent.send('Do the tests pass?');
    expect(first.text).toBe('The tests pass.');
    expect(deltas.join('')).toBe('The tests pass.');
    expect(first.messages[1]?.content).toEqual([
      { type: 'text', text: 'Looking at the files first.', phase: 'commentary' },
      { type: 'text', text: 'The tests pass.' },
    ]);
    await agent.send([...first.messages, { role: 'user', content: 'Thanks.' }]);
    expect(
      inputOf(server, 1)
        .filter((item) => item.role === 'assistant')
        .map((item) => item.phase),
    ).toEqual(['commentary', 'final_answer']);
  });
});

describe('prompt_cache_retention', () => {
  it('is sent when the option gives it, to Responses and to chat completions, and refused when it is not a value OpenAI takes', async () => {
    const server = await serve((request, res) =>
      request.path.endsWith('/responses')
        ? sendJson(res, 200, response([ANSWER]))
        : sendJson(res, 200, { choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] }),
    );
    await createAgent({
      provider: createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'x', promptCacheRetention: '24h' })(
        'gpt-5.5',
      ),
    }).send('Hi');
    await createAgent({
      provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', promptCacheRetention: 'in_memory' })(
        'gpt-5.5',
      ),
    }).send('Hi');
    await createAgent({ provider: createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' })('gpt-5.5') }).send('Hi');
    const bodies = server.requests.map((r) => (r.body as { prompt_cache_retention?: string }).prompt_cache_retention);
    expect(bodies).toEqual(['24h', 'in_memory', undefined]);
    expect(() => createOpenAI({ promptCacheRetention: '1h' as never })).toThrow(
      /promptCacheRetention must be 'in_memory' or '24h'/,
    );
  });
});
