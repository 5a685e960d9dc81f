/**
 * Encrypted reasoning carried between turns with `store: false`: every request body of a
 * two-turn session, step by step, on a loopback stand-in of the Responses API.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { Message } from '../messages/types.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { responsesReplies } from '../test-support/responses-server.js';
import { createOpenAIResponses } from './openai-responses.js';

const MODEL = 'gpt-5-mini';
const serve = useLoopbackServers();
isolateEnv();

const ADD = {
  name: 'add',
  description: 'Add two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: ({ a, b }: Record<string, unknown>) => Number(a) + Number(b),
};

const reasoningItem = (id: string, encrypted: string, summary: string) => ({
  type: 'reasoning',
  id,
  summary: [{ type: 'summary_text', text: summary }],
  encrypted_content: encrypted,
});

describe('encrypted reasoning with store: false', () => {
  it('sends each reasoning item back unchanged, before the call it led to, on every later request', async () => {
    const server = await serve(
      responsesReplies(MODEL, [
        {
          reasoning: { id: 'rs_1', encrypted: 'enc-1', summary: ['Add the numbers.'] },
          calls: [{ id: 'call_1', name: 'add', args: '{"a":2,"b":3}' }],
        },
        { reasoning: { id: 'rs_2', encrypted: 'enc-2', summary: ['Report it.'] }, text: 'The sum is 5.' },
        {
          reasoning: { id: 'rs_3', encrypted: 'enc-3', summary: ['Add again.', 'Then report.'] },
          calls: [{ id: 'call_2', name: 'add', args: '{"a":3,"b":4}' }],
        },
        { reasoning: { id: 'rs_4', encrypted: 'enc-4', summary: ['Done.'] }, text: 'The sum is 7.' },
      ]),
    );
    const provider = createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test', reasoningSummary: 'auto' })(
      MODEL,
    );
    const agent = createAgent({ provider, tools: [ADD], reasoning: { effort: 'low' } });
    const session = agent.session();
    expect((await session.send('2+3?')).text).toBe('The sum is 5.');
    const streamed = session.stream('and 3+4?');
    const reasoning: string[] = [];
    for await (const event of streamed) if (event.type === 'reasoning.delta') reasoning.push(event.text);
    expect((await streamed.result).text).toBe('The sum is 7.');
    expect(reasoning.join('')).toBe('Add again.\n\nThen report.Done.');

    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(4);
    for (const body of bodies) {
      expect(body).toMatchObject({
        model: MODEL,
        store: false,
        include: ['reasoning.encrypted_content'],
        reasoning: { effort: 'low', summary: 'auto' },
      });
    }
    const user = (content: string) => ({ type: 'message', role: 'user', content });
    const call = (id: string, args: string) => ({ type: 'function_call', call_id: id, name: 'add', arguments: args });
    const output = (id: string, out: string) => ({ type: 'function_call_output', call_id: id, output: out });
    const turn1 = [
      user('2+3?'),
      reasoningItem('rs_1', 'enc-1', 'Add the numbers.'),
      call('call_1', '{"a":2,"b":3}'),
      output('call_1', '5'),
    ];
    expect(bodies[0]?.input).toEqual([user('2+3?')]);
    expect(bodies[1]?.input).toEqual(turn1);
    const turn1Done = [
      ...turn1,
      reasoningItem('rs_2', 'enc-2', 'Report it.'),
      { type: 'message', role: 'assistant', content: 'The sum is 5.' },
    ];
    expect(bodies[2]?.input).toEqual([...turn1Done, user('and 3+4?')]);
    expect(bodies[3]?.input).toEqual([
      ...turn1Done,
      user('and 3+4?'),
      reasoningItem('rs_3', 'enc-3', 'Add again.\n\nThen report.'),
      call('call_2', '{"a":3,"b":4}'),
      output('call_2', '7'),
    ]);
  });

  it("keeps another provider's reasoning out, asks a non-reasoning model for no encrypted content, and sends stored reasoning by id", async () => {
    const server = await serve(responsesReplies(MODEL, [{ text: 'ok' }]));
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking', signature: 'sig', provider: 'anthropic' },
          { type: 'reasoning', text: '', id: 'rs_9', provider: 'openai' },
          { type: 'text', text: 'hello' },
        ],
      },
      { role: 'user', content: 'again' },
    ];
    const make = (options: { store?: boolean }) =>
      createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test', ...options });
    await make({})('gpt-4.1').generate({ model: 'gpt-4.1', messages });
    await make({ store: true })(MODEL).generate({ model: MODEL, messages });
    const [unstored, stored] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(unstored?.include).toBeUndefined();
    expect(unstored?.input).toEqual([
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'message', role: 'assistant', content: 'hello' },
      { type: 'message', role: 'user', content: 'again' },
    ]);
    expect(stored).toMatchObject({ store: true });
    expect(stored?.include).toBeUndefined();
    expect((stored?.input as unknown[] | undefined)?.[1]).toEqual({ type: 'reasoning', id: 'rs_9', summary: [] });
  });
});
