import { describe, expect, it } from 'vitest';
import type { ModelStreamPart } from '../contracts/model-response.js';
import { mockModel } from './mock-model.js';

const request = { model: 'mock-model', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('mockModel', () => {
  it("answers mockModel(['ok']) as in the seed", async () => {
    const model = mockModel(['ok']);
    const response = await model.generate(request);
    expect(response).toMatchObject({ text: 'ok', toolCalls: [], finishReason: 'stop' });
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(model.calls).toEqual([request]);
    model.assertAllUsed();
  });

  it('scripts tool calls, reported usage and thrown errors', async () => {
    const model = mockModel([
      {
        toolCalls: [{ name: 'read', arguments: { path: 'a.ts' } }],
        usage: { inputTokens: 1234, cachedInputTokens: 1000 },
      },
      new Error('overloaded'),
    ]);
    const first = await model.generate(request);
    expect(first.finishReason).toBe('tool-calls');
    expect(first.toolCalls).toEqual([{ id: 'call_1_0', name: 'read', arguments: { path: 'a.ts' } }]);
    expect(first.usage).toMatchObject({ inputTokens: 1234, cachedInputTokens: 1000 });
    await expect(model.generate(request)).rejects.toThrow('overloaded');
  });

  it('fails loudly on a call past the script and on unused steps', async () => {
    const model = mockModel(['one', 'two']);
    await model.generate(request);
    expect(() => model.assertAllUsed()).toThrow(expect.objectContaining({ code: 'LOUSHO_MOCK_SCRIPT_MISMATCH' }));
    await model.generate(request);
    await expect(model.generate(request)).rejects.toMatchObject({ code: 'LOUSHO_MOCK_SCRIPT_MISMATCH' });
  });

  it('answers from a function for unbounded scripts', async () => {
    const model = mockModel((req, index) => `reply ${index} to ${req.messages.length}`);
    expect((await model.generate(request)).text).toBe('reply 0 to 1');
    expect((await model.generate(request)).text).toBe('reply 1 to 1');
    expect(model.remaining).toBe(Number.POSITIVE_INFINITY);
  });

  it('streams text deltas, tool calls and one finish part', async () => {
    const model = mockModel([{ text: 'two words', toolCalls: [{ id: 't', name: 'x' }] }]);
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream(request)) parts.push(part);
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'text-delta', 'tool-call', 'finish']);
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.text)
        .join(''),
    ).toBe('two words');
  });

  it('stops a delayed reply when the signal aborts', async () => {
    const model = mockModel([{ text: 'late', delayMs: 5_000 }]);
    const controller = new AbortController();
    const pending = model.generate({ ...request, abortSignal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'LOUSHO_ABORTED' });
  });
});
