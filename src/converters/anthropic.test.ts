import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { validateMessages } from '../messages/validate.js';
import { thrown } from '../test-support/errors.js';
import { fromAnthropic } from './from-anthropic.js';
import { toAnthropic } from './to-anthropic.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

/** An extended-thinking tool turn with an image result, and a user note in the same message as the results. */
const TRANSCRIPT = {
  system: 'You are terse.',
  messages: [
    { role: 'user' as const, content: 'Screenshot the page.' },
    {
      role: 'assistant' as const,
      content: [
        { type: 'thinking', thinking: 'I should take a screenshot.', signature: 'sig' },
        { type: 'text', text: 'Taking it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: { url: 'https://x.test' } },
      ],
    },
    {
      role: 'user' as const,
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
        },
        { type: 'text', text: 'Thanks.' },
      ],
    },
  ],
};

describe('fromAnthropic', () => {
  it('reads system apart, thinking as reasoning parts, tool_use as tool calls, tool_result blocks as tool messages before the rest of their message', () => {
    const messages = fromAnthropic(TRANSCRIPT);
    validateMessages(messages);
    expect(messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Screenshot the page.' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should take a screenshot.', signature: 'sig', provider: 'anthropic' },
          { type: 'text', text: 'Taking it.' },
        ],
        toolCalls: [{ id: 'toolu_1', name: 'screenshot', arguments: { url: 'https://x.test' } }],
      },
      { role: 'tool', toolCallId: 'toolu_1', content: [{ type: 'image', image: PNG, mediaType: 'image/png' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
    ]);
  });

  it("writes a redacted_thinking block back, and no other provider's reasoning", () => {
    const content = [
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'tool_use', id: 't', name: 'f', input: {} },
    ];
    const read = fromAnthropic({ messages: [{ role: 'assistant', content }] });
    expect(read[0]).toMatchObject({
      content: [{ type: 'reasoning', text: '', encrypted: 'opaque', provider: 'anthropic' }],
    });
    expect(toAnthropic(read).messages[0]?.content).toEqual(content);
    const openai = toAnthropic([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'r', provider: 'openai' },
          { type: 'text', text: 'Hi.' },
        ],
      },
    ]);
    expect(openai.messages[0]?.content).toEqual([{ type: 'text', text: 'Hi.' }]);
  });

  it('writes the thinking block back where it was and the results in their own user message', () => {
    const { system, messages } = toAnthropic(fromAnthropic(TRANSCRIPT));
    expect(system).toBe('You are terse.');
    expect(messages[1]).toEqual(TRANSCRIPT.messages[1]);
    expect(messages.slice(2)).toEqual([
      { role: 'user', content: [TRANSCRIPT.messages[2]?.content[0]] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks.' }] },
    ]);
  });

  it('keeps is_error, several system blocks, and consecutive results in one user message', () => {
    const transcript = toAnthropic([
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'f', arguments: {} },
          { id: 'b', name: 'f', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'boom', isError: true },
      { role: 'tool', toolCallId: 'b', content: '' },
    ]);
    expect(transcript).toEqual({
      system: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'a', name: 'f', input: {} },
            { type: 'tool_use', id: 'b', name: 'f', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'a', content: 'boom', is_error: true },
            { type: 'tool_result', tool_use_id: 'b' },
          ],
        },
      ],
    });
    expect(fromAnthropic(transcript).slice(3)).toEqual([
      { role: 'tool', toolCallId: 'a', content: 'boom', isError: true },
      { role: 'tool', toolCallId: 'b', content: '' },
    ]);
  });

  it('writes a later system message as user text, and an image Anthropic cannot take as LOUSHO_MESSAGE_INVALID', () => {
    expect(
      toAnthropic([
        { role: 'user', content: 'a' },
        { role: 'system', content: 'be kind' },
      ]).messages[1],
    ).toEqual({
      role: 'user',
      content: '[system] be kind',
    });
    const error = thrown(() =>
      toAnthropic([{ role: 'user', content: [{ type: 'image', image: 'Qk0=', mediaType: 'image/bmp' }] }]),
    );
    expect(error.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(error.message).toContain('messages[0] has an image of type image/bmp');
  });

  it('refuses a message it cannot read with LOUSHO_MESSAGE_INVALID naming the message and the fix', () => {
    const error = thrown(() => fromAnthropic({ messages: [{ role: 'system', content: 'x' }] }));
    expect(error.message).toContain('messages[0] has role "system"');
    expect(error.message).toContain('the system prompt goes in system');
    expect(
      thrown(() =>
        fromAnthropic({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }] }),
      ).message,
    ).toContain('messages[0].content[0] has no id');
  });

  it('writes messages the Anthropic SDK accepts as MessageParam', () => {
    const params: MessageParam[] = toAnthropic(fromAnthropic(TRANSCRIPT)).messages as MessageParam[];
    expect(params).toHaveLength(4);
  });
});
