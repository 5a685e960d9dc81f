/**
 * Reasoning from OpenAI-compatible servers is a reasoning part, never answer text, and goes
 * back only where the server wants it. DeepSeek's thinking-mode docs (api-docs.deepseek.com,
 * "Thinking Mode": reasoning_content must be passed back within the tool-call steps of the
 * current turn, and the reasoning of earlier turns is left out) give the rule; the `thinking`
 * field is the name Ollama gives a model's reasoning (ollama/ollama docs/api.md, message.thinking),
 * which some compatible servers pass through. Replies are constructed in those shapes.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { type ReceivedRequest, sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createOpenAICompatible } from './openai-compatible.js';

const serve = useLoopbackServers();

const weather = tool({
  name: 'weather',
  description: 'The weather at a location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  execute: () => 'Sunny, 18°C.',
});

describe('reasoning from OpenAI-compatible servers', () => {
  it('keeps a `thinking` field apart from the answer, in a stream and in a whole reply', async () => {
    const server = await serve((request, response) => {
      if ((request.body as { stream?: boolean }).stream === true)
        void sendSse(response, [
          { data: { choices: [{ delta: { thinking: 'The user greets me. ' } }] } },
          { data: { choices: [{ delta: { thinking: 'I greet back.' } }] } },
          { data: { choices: [{ delta: { content: 'Hello' }, finish_reason: 'stop' }] } },
          '[DONE]',
        ]);
      else
        sendJson(response, 200, {
          choices: [{ message: { content: 'Hello', thinking: 'The user greets me.' }, finish_reason: 'stop' }],
        });
    });
    const provider = createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'x' })('m');
    const streamed = await createAgent({ provider, onEvent: () => {} }).send('Hi');
    expect(streamed.text).toBe('Hello');
    expect(streamed.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'The user greets me. I greet back.', provider: 'local' },
      { type: 'text', text: 'Hello' },
    ]);
    const whole = await createAgent({ provider }).send('Hi');
    expect(whole.text).toBe('Hello');
    expect(whole.messages[1]?.content).toEqual([
      { type: 'reasoning', text: 'The user greets me.', provider: 'local' },
      { type: 'text', text: 'Hello' },
    ]);
  });

  it("sends DeepSeek the reasoning of the current turn's tool-call steps only, not an earlier turn's", async () => {
    let n = 0;
    const server = await serve((_request, response) => {
      n++;
      sendJson(
        response,
        200,
        n === 1
          ? {
              choices: [
                {
                  message: {
                    content: '',
                    reasoning_content: 'Now Paris: I call the tool again.',
                    tool_calls: [
                      {
                        id: 'call_2',
                        type: 'function',
                        function: { name: 'weather', arguments: '{"location":"Paris"}' },
                      },
                    ],
                  },
                  finish_reason: 'tool_calls',
                },
              ],
            }
          : { choices: [{ message: { content: 'Sunny in Paris.' }, finish_reason: 'stop' }] },
      );
    });
    const history: Message[] = [
      { role: 'user', content: 'Weather in SF?' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'SF first: I call the tool.', provider: 'deepseek' },
          { type: 'text', text: '' },
        ],
        toolCalls: [{ id: 'call_1', name: 'weather', arguments: { location: 'San Francisco' } }],
      },
      { role: 'tool', toolCallId: 'call_1', content: 'Sunny, 18°C.' },
      { role: 'assistant', content: 'Sunny in SF.' },
      { role: 'user', content: 'And in Paris?' },
    ];
    const agent = createAgent({
      provider: createOpenAICompatible({ name: 'deepseek', baseURL: `${server.url}/v1`, apiKey: 'x' })(
        'deepseek-reasoner',
      ),
      tools: [weather],
    });
    await agent.send(history);
    const sent = ((server.requests[1] as ReceivedRequest).body as { messages: Record<string, unknown>[] }).messages;
    const assistants = sent.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(3);
    expect(assistants[0]?.reasoning_content).toBeUndefined();
    expect(assistants[2]?.reasoning_content).toBe('Now Paris: I call the tool again.');
  });
});
