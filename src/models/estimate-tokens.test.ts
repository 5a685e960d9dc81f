import { afterEach, describe, expect, it } from 'vitest';
import { readImageHeader } from '../messages/image-header.js';
import type { Message } from '../messages/types.js';
import {
  ASSISTANT_TEXT_FRAMING_TOKENS,
  estimateTokens,
  MESSAGE_FRAMING_TOKENS,
  messageTokens,
  REQUEST_FRAMING_TOKENS,
  requestFramingTokens,
  TOOL_RESULT_FRAMING_TOKENS,
  tokenProfile,
  toolDefinitionTokens,
} from './estimate-tokens.js';
import { anthropicImageTokens, imageTokens, openAIImageTokens } from './image-tokens.js';
import { GPT5_REQUEST_OVERHEAD_TOKENS } from './model-table.js';
import { registerModel, resetModelRegistry } from './registry.js';
import { countTextTokens } from './tokenizer.js';

afterEach(() => resetModelRegistry());

describe('estimateTokens', () => {
  const messages: Message[] = [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'List the files.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'ls', arguments: { path: '.' } }] },
    { role: 'tool', toolCallId: 'c1', content: 'a.ts\nb.ts' },
  ];

  it('adds framing per message and per request to the BPE counts', () => {
    const content =
      countTextTokens('You are terse.') + countTextTokens('List the files.') + countTextTokens('a.ts\nb.ts');
    const call = countTextTokens('ls') + countTextTokens('{"path":"."}');
    const estimate = estimateTokens(messages);
    expect(estimate).toBeGreaterThan(content + call + 4 * MESSAGE_FRAMING_TOKENS + TOOL_RESULT_FRAMING_TOKENS);
    expect(estimate).toBeLessThan(content + call + 4 * MESSAGE_FRAMING_TOKENS + 30);
  });

  it('never counts metadata', () => {
    const plain: Message = { role: 'user', content: 'same' };
    const tagged: Message = { role: 'user', content: 'same', metadata: { pinned: true, note: 'x'.repeat(10_000) } };
    expect(messageTokens(tagged)).toBe(messageTokens(plain));
  });

  it('counts the tool definitions and output schema of a request', () => {
    const tools = [
      {
        name: 'ls',
        description: 'List files in a folder',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const outputSchema = { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } } };
    const bare = estimateTokens({ messages });
    const withTools = estimateTokens({ messages, tools });
    const withBoth = estimateTokens({ messages, tools, outputSchema });
    expect(withTools - bare).toBe(toolDefinitionTokens(tools));
    expect(withBoth).toBeGreaterThan(withTools + 10);
    expect(estimateTokens({ messages: [] })).toBe(REQUEST_FRAMING_TOKENS);
  });

  it('takes the model from the request or the second argument', () => {
    const text: Message[] = [{ role: 'user', content: 'naïve café 東京 '.repeat(50) }];
    expect(estimateTokens(text, 'gpt-4')).not.toBe(estimateTokens(text, 'gpt-4o'));
    expect(estimateTokens({ model: 'gpt-4', messages: text })).toBe(estimateTokens(text, 'gpt-4'));
  });

  it("adds the model's request overhead once per request: 67 for the GPT-5 family, none for others", () => {
    const bare = estimateTokens(messages, 'gpt-4.1');
    expect(GPT5_REQUEST_OVERHEAD_TOKENS).toBe(67);
    for (const model of ['gpt-5-mini', 'openai/gpt-5', 'gpt-5-nano', 'gpt-5-mini-2025-08-07']) {
      expect(estimateTokens(messages, model), model).toBe(bare + GPT5_REQUEST_OVERHEAD_TOKENS);
      expect(estimateTokens({ model, messages: [] }), model).toBe(REQUEST_FRAMING_TOKENS + 67);
    }
    expect(estimateTokens(messages, 'gpt-5-chat-latest')).toBe(bare);
    expect(estimateTokens(messages, 'some-local-model')).toBe(bare);
    expect(requestFramingTokens(tokenProfile('gpt-5-mini'))).toBe(REQUEST_FRAMING_TOKENS + 67);
    expect(requestFramingTokens(tokenProfile('gpt-4o'))).toBe(REQUEST_FRAMING_TOKENS);
  });

  it('takes the request overhead of a registered model', () => {
    registerModel({ id: 'my-model', provider: 'ollama', contextWindow: 8_192, requestOverheadTokens: 25 });
    expect(estimateTokens(messages, 'my-model') - estimateTokens(messages, 'gpt-4.1')).toBe(25);
  });

  it('frames the text of an assistant message beside its tool calls as a message of its own', () => {
    const call = { id: 'c1', name: 'ls', arguments: { path: '.' } };
    const calls: Message = { role: 'assistant', content: '', toolCalls: [call] };
    const both: Message = { role: 'assistant', content: 'Listing the folder.', toolCalls: [call] };
    const textOnly: Message = { role: 'assistant', content: 'Listing the folder.' };
    const text = countTextTokens('Listing the folder.');
    expect(messageTokens(both) - messageTokens(calls)).toBe(text + ASSISTANT_TEXT_FRAMING_TOKENS);
    expect(messageTokens(textOnly)).toBe(MESSAGE_FRAMING_TOKENS + text);
  });

  it('recounts a message whose content was replaced in place', () => {
    const message: Message = { role: 'tool', toolCallId: 'x', content: 'word '.repeat(500) };
    const before = messageTokens(message);
    message.content = 'short';
    expect(messageTokens(message)).toBeLessThan(before);
  });
});

describe('image tokens', () => {
  it("follows OpenAI's tile formula", () => {
    expect(openAIImageTokens(1024, 1024)).toBe(765);
    expect(openAIImageTokens(2048, 4096)).toBe(1105);
    expect(openAIImageTokens(4000, 4000, 'low')).toBe(85);
  });

  it("follows Anthropic's area formula with its resize", () => {
    expect(anthropicImageTokens(1000, 1000)).toBe(1334);
    expect(anthropicImageTokens(3136, 3136)).toBe(anthropicImageTokens(1568, 1568));
  });

  it('reads the size from a PNG header in base64 and uses it', () => {
    const png = new Uint8Array(33);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    png.set([0, 0, 0x02, 0x00, 0, 0, 0x01, 0x00], 16); // 512 x 256
    expect(readImageHeader(png)?.size).toEqual({ width: 512, height: 256 });
    const data = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    expect(imageTokens({ type: 'image', image: data }, 'openai')).toBe(openAIImageTokens(512, 256));
    expect(imageTokens({ type: 'image', image: data }, 'anthropic')).toBe(anthropicImageTokens(512, 256));
  });

  it('uses the image formula of the model in a message', () => {
    const message: Message = {
      role: 'user',
      content: [{ type: 'image', image: 'https://example.com/a.png', width: 1000, height: 1000 }],
    };
    expect(estimateTokens([message], 'claude-sonnet-4-5') - estimateTokens([message], 'gpt-4o')).toBe(1334 - 765);
  });
});
