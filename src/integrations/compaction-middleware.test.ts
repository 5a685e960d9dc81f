import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { generateText, type LanguageModelMiddleware, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { prose } from '../test-support/text.js';
import { compactionMiddleware } from './compaction-middleware.js';

const usage = (input: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
});

function recordingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId: 'recording-model',
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(100),
      warnings: [],
    }),
  });
}

const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** A stored conversation with three large tool results; the last one and the user messages carry providerOptions. */
function stored(): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Read the three files.', providerOptions: cache }];
  for (let i = 0; i < 3; i++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: 'read', input: { i } }],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${i}`,
          toolName: 'read',
          output: { type: 'text', value: prose(i, 6_000) },
          ...(i === 2 ? { providerOptions: cache } : {}),
        },
      ],
    });
  }
  messages.push({ role: 'user', content: 'Now summarise them.' });
  return messages;
}

async function promptSent(middleware: LanguageModelMiddleware | undefined, messages: ModelMessage[]) {
  const model = recordingModel();
  await generateText({ model: middleware === undefined ? model : wrapLanguageModel({ model, middleware }), messages });
  return (model.doGenerateCalls[0] as LanguageModelV3CallOptions).prompt;
}

describe('compactionMiddleware()', () => {
  it('sends the prompt as the AI SDK built it while it is under the threshold', async () => {
    const plain = await promptSent(undefined, stored());
    expect(await promptSent(compactionMiddleware({ contextWindow: 100_000 }), stored())).toEqual(plain);
  });

  it('prunes old results above the threshold and sends every message it left alone as it came', async () => {
    const plain = await promptSent(undefined, stored());
    const sent = await promptSent(compactionMiddleware({ contextWindow: 4_000, protectedTokens: 1_500 }), stored());
    expect(sent).toHaveLength(plain.length);
    const output = (i: number) =>
      (sent[i]?.content as { output: { type: string; value: string } }[] | undefined)?.[0]?.output;
    expect(output(2)).toEqual({
      type: 'text',
      value: expect.stringMatching(/^\[pruned: read\(\{"i":0\}\) result, 6000 chars/),
    });
    expect(output(4)?.value).toMatch(/^\[pruned: read\(\{"i":1\}\)/);
    for (const i of [0, 1, 3, 5, 6, 7]) expect(sent[i]).toEqual(plain[i]);
    expect((sent[6]?.content as { providerOptions: unknown }[] | undefined)?.[0]?.providerOptions).toEqual(cache);
  });

  it('is a middleware wrapLanguageModel accepts', () => {
    const middleware: LanguageModelMiddleware = compactionMiddleware();
    expect(middleware.specificationVersion).toBe('v3');
  });
});
