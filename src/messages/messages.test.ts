import { describe, expect, it } from 'vitest';
import { contentLength, contentText, reasoningText } from './content.js';
import { isPinned, pinMessage } from './pin.js';
import { groupTurns, latestAssistantTurn } from './turns.js';
import type { Message } from './types.js';
import { validateMessages } from './validate.js';

describe('pinMessage', () => {
  it('returns a pinned copy and leaves the original alone', () => {
    const original: Message = { role: 'user', content: 'Goal', metadata: { source: 'ui' } };
    const pinned = pinMessage(original);
    expect(isPinned(pinned)).toBe(true);
    expect(pinned.metadata).toEqual({ source: 'ui', pinned: true });
    expect(isPinned(original)).toBe(false);
  });

  it('runs the seed example as written', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a research assistant.' },
      pinMessage({ role: 'user', content: 'Goal: compare the three vendors on price and support.' }),
    ];
    expect(isPinned(messages[1] as Message)).toBe(true);
  });
});

describe('groupTurns', () => {
  const transcript: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'u' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'a', name: 'read', arguments: {} },
        { id: 'b', name: 'read', arguments: {} },
      ],
    },
    { role: 'tool', toolCallId: 'a', content: 'A' },
    { role: 'tool', toolCallId: 'b', content: 'B' },
    { role: 'assistant', content: 'done' },
  ];

  it('keeps an assistant turn together with all its results', () => {
    expect(groupTurns(transcript)).toEqual([
      { kind: 'message', start: 0, end: 1 },
      { kind: 'message', start: 1, end: 2 },
      { kind: 'assistant', start: 2, end: 5 },
      { kind: 'message', start: 5, end: 6 },
    ]);
  });

  it('stretches a turn to a result that arrives after another message', () => {
    const late: Message[] = [
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 't', arguments: {} }] },
      { role: 'user', content: 'interjection' },
      { role: 'tool', toolCallId: 'x', content: 'late' },
    ];
    expect(groupTurns(late)).toEqual([{ kind: 'assistant', start: 0, end: 3 }]);
  });

  it('finds the latest assistant turn', () => {
    expect(latestAssistantTurn(transcript)).toEqual({ kind: 'message', start: 5, end: 6 });
    expect(latestAssistantTurn(transcript.slice(0, 5))).toEqual({ kind: 'assistant', start: 2, end: 5 });
    expect(latestAssistantTurn([{ role: 'user', content: 'hi' }])).toBeUndefined();
  });
});

describe('validateMessages', () => {
  const bad: [string, unknown][] = [
    ['not an object', 'hello'],
    ['an unknown role', { role: 'robot', content: 'x' }],
    ['a tool result without toolCallId', { role: 'tool', content: 'x' }],
    ['a tool call without a name', { role: 'assistant', content: '', toolCalls: [{ id: '1' }] }],
    ['a part of unknown type', { role: 'user', content: [{ type: 'audio' }] }],
    ['system content that is not text', { role: 'system', content: [{ type: 'text', text: 'x' }] }],
    ['reasoning in a user message', { role: 'user', content: [{ type: 'reasoning', text: 'hm' }] }],
    ['reasoning without text', { role: 'assistant', content: [{ type: 'reasoning', signature: 's' }] }],
    ['an image in an assistant message', { role: 'assistant', content: [{ type: 'image', image: 'https://x/y.png' }] }],
  ];
  for (const [what, message] of bad) {
    it(`rejects ${what} with LOUSHO_MESSAGE_INVALID naming the index`, () => {
      expect(() => validateMessages([{ role: 'user', content: 'ok' }, message])).toThrow(
        expect.objectContaining({ code: 'LOUSHO_MESSAGE_INVALID', message: expect.stringContaining('messages[1]') }),
      );
    });
  }

  it('accepts reasoning and a provider-side compaction in an assistant message, and reads them apart from its text', () => {
    const content = [
      { type: 'compaction', text: 'Earlier: the user asked for a refund.', provider: 'anthropic' },
      { type: 'reasoning', text: 'The order id is 42.', signature: 'sig', provider: 'anthropic' },
      { type: 'reasoning', text: '', encrypted: 'opaque', provider: 'anthropic' },
      { type: 'text', text: 'Refunding order 42.' },
    ] as const;
    const messages: Message[] = [
      { role: 'user', content: 'refund' },
      { role: 'assistant', content: [...content] },
    ];
    expect(() => validateMessages(messages)).not.toThrow();
    expect(contentText(content)).toBe('Refunding order 42.');
    expect(contentLength(content)).toBe('Refunding order 42.'.length);
    expect(reasoningText(content)).toBe('The order id is 42.');
  });

  it('accepts text and image parts', () => {
    expect(() =>
      validateMessages([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image', image: 'https://x/y.png' },
          ],
        },
      ]),
    ).not.toThrow();
  });
});
