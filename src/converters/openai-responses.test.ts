import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { validateMessages } from '../messages/validate.js';
import { thrown } from '../test-support/errors.js';
import { fromOpenAIResponses } from './from-openai-responses.js';
import { toOpenAIResponses } from './to-openai-responses.js';

/** A reasoning model's stored turn: reasoning, a call, its output, then the answer with its item id. */
const ITEMS = [
  { role: 'developer', content: 'Answer in one line.' },
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'Weather in Paris?' },
      { type: 'input_file', file_id: 'file_1' },
    ],
  },
  { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'weather',
    arguments: '{"city": "Paris"}',
    status: 'completed',
  },
  { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'It is 18°C.', annotations: [] }],
  },
];

describe('fromOpenAIResponses', () => {
  it('reads messages, function calls and their outputs, and keeps the rest in metadata.openaiResponses', () => {
    const messages = fromOpenAIResponses(ITEMS);
    validateMessages(messages);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }],
      metadata: { openaiResponses: { before: [ITEMS[2]], calls: { call_1: { id: 'fc_1', status: 'completed' } } } },
    });
    expect(messages[1]).toMatchObject({ content: [{ type: 'text', text: 'Weather in Paris?' }] });
    expect(messages[4]).toMatchObject({ content: 'It is 18°C.', metadata: { openaiResponses: { id: 'msg_1' } } });
  });

  it('writes back the same items: reasoning, files, item ids and the arguments text included', () => {
    const items = toOpenAIResponses(fromOpenAIResponses(ITEMS));
    expect(items).toEqual([
      { type: 'message', role: 'developer', content: 'Answer in one line.' },
      { type: 'message', role: 'user', content: ITEMS[1]?.content },
      ...ITEMS.slice(2, 4),
      { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
      ITEMS[5],
    ]);
  });

  it('joins function calls to the assistant message before them, as one turn', () => {
    const messages = fromOpenAIResponses([
      { role: 'user', content: 'go' },
      { type: 'message', role: 'assistant', content: 'Reading both.' },
      { type: 'function_call', call_id: 'a', name: 'read', arguments: '{"path":"a"}' },
      { type: 'function_call', call_id: 'b', name: 'read', arguments: '{"path":"b"}' },
      { type: 'function_call_output', call_id: 'a', output: 'A' },
      {
        type: 'function_call_output',
        call_id: 'b',
        output: [{ type: 'input_image', image_url: 'https://x.test/b.png', detail: 'low' }],
      },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: 'Reading both.',
        toolCalls: [
          { id: 'a', name: 'read', arguments: { path: 'a' } },
          { id: 'b', name: 'read', arguments: { path: 'b' } },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'tool', toolCallId: 'b', content: [{ type: 'image', image: 'https://x.test/b.png', detail: 'low' }] },
    ]);
  });

  it('refuses an item it cannot read with LOUSHO_MESSAGE_INVALID naming the item and the fix', () => {
    const error = thrown(() =>
      fromOpenAIResponses([
        { role: 'user', content: 'x' },
        { type: 'function_call', name: 'f', arguments: '{}' },
      ]),
    );
    expect(error.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(error.message).toMatch(/input\[1\] has no call_id .*function_call/);
    expect(() => fromOpenAIResponses([{ content: 'no role or type' }])).toThrow(/input\[0\] has no type/);
    expect(() =>
      fromOpenAIResponses([{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x' }] }]),
    ).toThrow(/Only user messages and tool outputs hold images/);
  });

  it('writes items the openai SDK accepts as ResponseInputItem', () => {
    const input = toOpenAIResponses([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]) as ResponseInputItem[];
    expect(input).toEqual([
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'message', role: 'assistant', content: 'hello' },
    ]);
  });
});
