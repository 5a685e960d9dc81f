import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, type ModelMessage, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPinned } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { thrown } from '../test-support/errors.js';
import { fromModelMessages, modelMessagesToMessages } from './from-model-messages.js';
import { toModelMessages } from './to-model-messages.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function reply(
  content: LanguageModelV3GenerateResult['content'],
  unified: 'stop' | 'tool-calls',
): LanguageModelV3GenerateResult {
  return { content, finishReason: { unified, raw: unified }, usage, warnings: [] };
}

/** A real generateText tool loop (scripted model): its messages are what AI SDK users hold. */
async function realMessages(): Promise<ModelMessage[]> {
  let step = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () =>
      step++ === 0
        ? reply(
            [
              { type: 'reasoning', text: 'Two lookups.' },
              { type: 'text', text: 'Looking up.' },
              { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Paris"}' },
              { type: 'tool-call', toolCallId: 'c2', toolName: 'fail', input: '{}' },
            ],
            'tool-calls',
          )
        : reply([{ type: 'text', text: 'Paris: 18°C.' }], 'stop'),
  });
  const history: ModelMessage[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?', providerOptions: { lousho: { pinned: true } } },
  ];
  const result = await generateText({
    model,
    messages: history,
    stopWhen: stepCountIs(3),
    tools: {
      weather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, celsius: 18 }),
      }),
      fail: tool({
        inputSchema: z.object({ why: z.string().optional() }),
        execute: async (): Promise<string> => Promise.reject(new Error('no service')),
      }),
    },
  });
  return [...history, ...result.response.messages];
}

describe('fromModelMessages', () => {
  it('reads a real generateText transcript: tool calls, json and error results, pinning through providerOptions.lousho', async () => {
    const messages = fromModelMessages(await realMessages());
    validateMessages(messages);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(isPinned(messages[1] as Message)).toBe(true);
    expect(messages[2]).toMatchObject({
      content: 'Looking up.',
      toolCalls: [
        { id: 'c1', name: 'weather', arguments: { city: 'Paris' } },
        { id: 'c2', name: 'fail', arguments: {} },
      ],
    });
    expect(messages[3]).toMatchObject({
      toolCallId: 'c1',
      content: '{"city":"Paris","celsius":18}',
      metadata: { aiSdk: { output: 'json' } },
    });
    expect(messages[4]).toMatchObject({ toolCallId: 'c2', content: 'no service', isError: true });
  });

  it('writes the same messages back, reasoning included, and they run in generateText', async () => {
    const original = await realMessages();
    const written = toModelMessages(fromModelMessages(original));
    expect(written).toEqual(original);
    const typed: ModelMessage[] = written;
    const model = new MockLanguageModelV3({ doGenerate: async () => reply([{ type: 'text', text: 'ok' }], 'stop') });
    await generateText({ model, messages: typed });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(prompt[1]?.providerOptions).toEqual({ lousho: { pinned: true } });
  });

  it('writes a json result as json while it parses, and as text once it is a pruned marker', () => {
    const [, json] = fromModelMessages([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'json', value: { n: 1 } } }],
      },
    ]) as [Message, Message];
    const output = (m: Message) => (toModelMessages([m])[0]?.content as { output: unknown }[] | undefined)?.[0]?.output;
    expect(output(json)).toEqual({ type: 'json', value: { n: 1 } });
    expect(output({ ...json, content: '[pruned: f({}) result, 7 chars; already read]' } as Message)).toEqual({
      type: 'text',
      value: '[pruned: f({}) result, 7 chars; already read]',
    });
  });

  it('writes images in tool results as image-data for ai 6 and media for ai 5', () => {
    const result: Message = {
      role: 'tool',
      toolCallId: 'c',
      content: [{ type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' }],
    };
    const value = (version: 5 | 6) =>
      (toModelMessages([result], { version })[0]?.content as { output: { value: unknown } }[] | undefined)?.[0]?.output
        .value;
    expect(value(6)).toEqual([{ type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' }]);
    expect(value(5)).toEqual([{ type: 'media', data: 'iVBORw0KGgo=', mediaType: 'image/png' }]);
    expect(
      modelMessagesToMessages([
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'content', value: value(5) } },
          ],
        },
      ])[0],
    ).toMatchObject({
      content: result.content,
    });
  });

  it('refuses a message it cannot read with LOUSHO_MESSAGE_INVALID naming the message and the fix', () => {
    const error = thrown(() =>
      fromModelMessages([
        { role: 'tool', content: [{ type: 'tool-result', toolName: 'f', output: { type: 'text', value: '' } }] },
      ]),
    );
    expect(error.code).toBe('LOUSHO_MESSAGE_INVALID');
    expect(error.message).toContain('messages[0].content[0] has no toolCallId');
    expect(thrown(() => fromModelMessages([{ role: 'robot', content: '' }])).message).toContain('has role "robot"');
    expect(
      thrown(() =>
        fromModelMessages([
          {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'magic' } }],
          },
        ]),
      ).message,
    ).toContain('has an output of type "magic"');
  });
});
