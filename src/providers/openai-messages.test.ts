import { describe, expect, it } from 'vitest';
import { fromOpenAIChat } from '../converters/from-openai-chat.js';
import { toOpenAIChat } from '../converters/to-openai-chat.js';
import type { Message } from '../messages/types.js';
import { toChatMessages } from './openai-messages.js';

const call = { id: 'c1', name: 'read', arguments: { path: 'a.ts' } };

/** Messages on which the two writers used to differ, each with what both send now. */
const CASES: { name: string; message: Message }[] = [
  { name: 'no text parts, a tool call', message: { role: 'assistant', content: [], toolCalls: [call] } },
  { name: 'no text parts, no call', message: { role: 'assistant', content: [] } },
  {
    name: 'reasoning and text',
    message: {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hm' },
        { type: 'text', text: 'x' },
      ],
      toolCalls: [call],
    },
  },
  {
    name: 'two text parts',
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    },
  },
  {
    name: 'a tool result with an image',
    message: {
      role: 'tool',
      toolCallId: 'c1',
      content: [
        { type: 'text', text: 'r' },
        { type: 'image', image: 'https://x.test/a.png' },
      ],
    },
  },
  { name: 'an empty tool result', message: { role: 'tool', toolCallId: 'c1', content: [] } },
];

/** The converter's output as the provider sends it: text parts of assistant and tool messages joined, names left out. */
function flattened(message: ReturnType<typeof toOpenAIChat>[number]): unknown {
  const { name: _name, ...rest } = message as typeof message & { name?: string };
  if ((rest.role === 'assistant' || rest.role === 'tool') && Array.isArray(rest.content))
    return { ...rest, content: rest.content.map((p) => p.text).join('\n') };
  return rest;
}

describe('one Message → OpenAI chat conversion', () => {
  it.each(CASES)('the provider sends what toOpenAIChat writes, flattened: $name', ({ message }) => {
    expect(toChatMessages([message])).toEqual(toOpenAIChat([message]).map(flattened));
  });

  it('writes content null for a tool-calling message without text parts, on both paths', () => {
    const [none, empty] = [CASES[0], CASES[1]].map((c) => toOpenAIChat([(c as { message: Message }).message])[0]);
    expect(none).toMatchObject({ content: null, tool_calls: [expect.objectContaining({ id: 'c1' })] });
    // Without a call the converter writes what it was given, and the provider its text, ''.
    expect(empty).toEqual({ role: 'assistant', content: [] });
    expect(toChatMessages([(CASES[1] as { message: Message }).message])[0]).toEqual({ role: 'assistant', content: '' });
  });

  it('says an image in a tool result was left out, in the same words, where the image was', () => {
    const tool = (CASES[4] as { message: Message }).message;
    const note = '[image omitted: OpenAI chat tool messages carry text only]';
    expect(toOpenAIChat([tool])[0]?.content).toEqual([
      { type: 'text', text: 'r' },
      { type: 'text', text: note },
    ]);
    expect(toChatMessages([tool])[0]?.content).toBe(`r\n${note}`);
  });

  it('sends the argument text a log was read with, on both paths, so the same call is the same bytes', () => {
    const read = fromOpenAIChat([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path": "a.ts"}' } }],
      },
    ]);
    const args = (m: unknown) => (m as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]?.function;
    expect(args(toOpenAIChat(read)[0])?.arguments).toBe('{"path": "a.ts"}');
    expect(args(toChatMessages(read)[0])?.arguments).toBe('{"path": "a.ts"}');
  });

  it('keeps names and the developer role for the converter only: OpenAI rejects a name on a tool message', () => {
    const calling = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
    };
    const read = fromOpenAIChat([
      { role: 'developer', content: 'Be brief.', name: 'ops' },
      calling,
      { role: 'tool', tool_call_id: 'c1', content: 'ok', name: 'read' },
    ]);
    expect(toOpenAIChat(read)).toEqual([
      { role: 'developer', content: 'Be brief.', name: 'ops' },
      calling,
      { role: 'tool', tool_call_id: 'c1', content: 'ok', name: 'read' },
    ]);
    expect(toChatMessages(read)).toEqual([
      { role: 'system', content: 'Be brief.' },
      calling,
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
  });

  it('sends reasoning back only to the provider that wrote it, beside the flattened text', () => {
    const message: Message = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'think', provider: 'deepseek' },
        { type: 'text', text: 'x' },
      ],
      toolCalls: [call],
    };
    expect(toChatMessages([message], { provider: 'deepseek', field: 'reasoning_content' })[0]).toMatchObject({
      content: 'x',
      reasoning_content: 'think',
    });
    expect(toChatMessages([message], { provider: 'other', field: 'reasoning_content' })[0]).not.toHaveProperty(
      'reasoning_content',
    );
  });
});
