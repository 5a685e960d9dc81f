import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { thrown } from '../test-support/errors.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { toOpenAIChat } from './to-openai-chat.js';

/** Shaped like a mini-swe-agent log: content null, a tool call, and fields the model never saw. */
const LOG = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: '<pr_description>Fix the bug</pr_description>' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
    function_call: null,
    provider_specific_fields: { refusal: null },
    annotations: [],
    extra: { cost: 0.001, response: { usage: { prompt_tokens: 700 } } },
  },
  {
    role: 'tool',
    tool_call_id: 'call_a',
    content: '<returncode>0</returncode>\n<output>a.py</output>',
    extra: { returncode: 0 },
  },
];

describe('fromOpenAIChat', () => {
  it('reads a logged trajectory: content null, tool_calls with parsed arguments, tool_call_id; extra fields left out', () => {
    expect(fromOpenAIChat(LOG)).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: '<pr_description>Fix the bug</pr_description>' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_a', name: 'bash', arguments: { command: 'ls' } }] },
      { role: 'tool', toolCallId: 'call_a', content: '<returncode>0</returncode>\n<output>a.py</output>' },
    ]);
  });

  it('writes what it read back as the model saw it, with content null for a message that only calls tools', () => {
    const sent = LOG.map(({ role, content, tool_calls, tool_call_id }: Record<string, unknown>) => ({
      role,
      content,
      ...(tool_calls === undefined ? {} : { tool_calls }),
      ...(tool_call_id === undefined ? {} : { tool_call_id }),
    }));
    expect(toOpenAIChat(fromOpenAIChat(LOG))).toEqual(sent);
  });

  it('keeps a participant name and the developer role in metadata.openai and writes them back', () => {
    const chat = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'hi', name: 'alice' },
    ];
    const messages = fromOpenAIChat(chat);
    expect(messages[0]).toEqual({ role: 'system', content: 'Be brief.', metadata: { openai: { role: 'developer' } } });
    expect(messages[1]?.metadata).toEqual({ openai: { name: 'alice' } });
    expect(toOpenAIChat(messages)).toEqual(chat);
  });

  it('reads the name of a tool message as toolName, and writes it only where it was read', () => {
    const [, tool] = fromOpenAIChat([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'get', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', name: 'get', content: 'ok' },
    ]);
    expect(tool).toMatchObject({ role: 'tool', toolName: 'get' });
    expect(toOpenAIChat([tool as Message])[0]).toEqual({ role: 'tool', tool_call_id: 'c', content: 'ok', name: 'get' });
    expect(toOpenAIChat([{ role: 'tool', toolCallId: 'c', toolName: 'get', content: 'ok' }])[0]).not.toHaveProperty(
      'name',
    );
  });

  it('sends the arguments text it read byte for byte, unless the arguments changed', () => {
    const text = '{"command": "ls -la",  "cwd": "/"}';
    const messages = fromOpenAIChat([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: text } }],
      },
    ]);
    const call = (m: Message[]) =>
      (toOpenAIChat(m)[0] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]?.function.arguments;
    expect(call(messages)).toBe(text);
    const edited = messages.map((m) =>
      m.role === 'assistant' ? { ...m, toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'pwd' } }] } : m,
    );
    expect(call(edited)).toBe('{"command":"pwd"}');
  });

  it('refuses what it cannot read with LOUSHO_MESSAGE_INVALID naming the message and the fix', () => {
    const exit = thrown(() =>
      fromOpenAIChat([
        { role: 'user', content: 'x' },
        { role: 'exit', content: 'diff' },
      ]),
    );
    expect(exit.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(exit.message).toContain('messages[1] has role "exit"');
    expect(exit.message).toContain('drop messages the model never saw');
    expect(exit.details).toMatchObject({ index: 1 });
    const audio = thrown(() => fromOpenAIChat([{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }]));
    expect(audio.message).toContain('messages[0].content[0] is a part of type "input_audio"');
    expect(thrown(() => fromOpenAIChat([{ role: 'tool', content: 'x' }])).message).toContain('has no tool_call_id');
    expect(thrown(() => fromOpenAIChat([{ role: 'function', name: 'f', content: 'x' }])).message).toContain(
      'legacy function message',
    );
    expect(thrown(() => fromOpenAIChat({} as never)).message).toContain('takes an array of messages');
  });

  it('writes images as image_url parts, bytes as data: URLs, and an image in a tool result as a note', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chat = toOpenAIChat([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image: png, detail: 'low' },
        ],
      },
      { role: 'tool', toolCallId: 'c', content: [{ type: 'image', image: 'https://x.test/a.png' }] },
    ]);
    expect(chat[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        {
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}`, detail: 'low' },
        },
      ],
    });
    expect(chat[1]).toEqual({
      role: 'tool',
      tool_call_id: 'c',
      content: [{ type: 'text', text: '[image omitted: OpenAI chat tool messages carry text only]' }],
    });
  });

  it('writes messages the openai SDK accepts as ChatCompletionMessageParam', () => {
    const params: ChatCompletionMessageParam[] = toOpenAIChat(fromOpenAIChat(LOG));
    expect(params).toHaveLength(4);
  });
});
