import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { createRequestBudget, onceWarner } from './request-budget.js';

const TOOLS: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

afterEach(() => {
  resetModelRegistry();
  vi.restoreAllMocks();
});

describe('createRequestBudget: the size of a request', () => {
  it('is the one formula estimateTokens uses: framing, tools, output schema and messages', () => {
    const budget = createRequestBudget({ model: 'gpt-4o' });
    const request = { model: 'gpt-4o', messages: readingTranscript(5), tools: TOOLS, outputSchema: { type: 'object' } };
    expect(budget.measure(request)).toBe(estimateTokens(request));
    expect(budget.measureWith(request, request.messages.slice(0, 3))).toBe(
      estimateTokens({ ...request, messages: request.messages.slice(0, 3) }),
    );
  });

  it('stays exact as the transcript grows, is cut back, or has a message rewritten in place', () => {
    const budget = createRequestBudget({ model: 'gpt-4o' });
    const messages: Message[] = readingTranscript(3);
    const request = { model: 'gpt-4o', messages };
    expect(budget.measure(request)).toBe(estimateTokens(request));
    messages.push(...readingTranscript(2).slice(2));
    expect(budget.measure(request)).toBe(estimateTokens(request));
    (messages[3] as { content: string }).content = 'short now';
    expect(budget.measure(request)).toBe(estimateTokens(request));
    messages.splice(2, 4);
    expect(budget.measure(request)).toBe(estimateTokens(request));
  });

  it('adds what the provider counted beyond the estimate to every later measure, never a negative amount', () => {
    const budget = createRequestBudget({ model: 'gpt-4o' });
    const request = { model: 'gpt-4o', messages: readingTranscript(2) };
    const raw = budget.measure(request);
    budget.calibrate(request, raw + 67);
    expect(budget.calibration).toBe(67);
    expect(budget.measure(request)).toBe(raw + 67);
    expect(budget.measureWith(request, [])).toBe(estimateTokens([], 'gpt-4o') + 67);
    budget.calibrate(request, undefined);
    expect(budget.calibration).toBe(67);
    budget.calibrate(request, raw - 500);
    expect(budget.calibration).toBe(0);
  });
});

describe('createRequestBudget: the context window', () => {
  it('takes the option first, then a registered model, then the server, then the table', async () => {
    const provider = { contextWindow: vi.fn(async () => 8_192) };
    expect(await createRequestBudget({ model: 'gpt-4o', provider }).contextWindow({ option: 4_000 })).toBe(4_000);
    expect(await createRequestBudget({ model: 'gpt-4o', provider }).contextWindow()).toBe(8_192);
    expect(await createRequestBudget({ model: 'gpt-4o' }).contextWindow()).toBe(128_000);
    registerModel({ id: 'gpt-4o', provider: 'openai', contextWindow: 16_000 });
    expect(await createRequestBudget({ model: 'gpt-4o', provider }).contextWindow()).toBe(16_000);
  });

  it('asks a server that could not tell again next time, and a server that told only once', async () => {
    const answers = [undefined, 8_192];
    const provider = { contextWindow: vi.fn(async () => answers.shift()) };
    const budget = createRequestBudget({ model: 'qwen3:8b', provider });
    expect(await budget.contextWindow({ unknown: 'none' })).toBeUndefined();
    expect(await budget.contextWindow()).toBe(8_192);
    expect(await budget.contextWindow()).toBe(8_192);
    expect(provider.contextWindow).toHaveBeenCalledTimes(2);
  });

  it('assumes 128,000 for an unknown model and warns once per feature, or answers undefined when asked to', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const budget = createRequestBudget({ model: 'my-local-model' });
    const feature = { name: 'Compaction', setting: 'compaction.contextWindow', warn: onceWarner() };
    expect(await budget.contextWindow({ unknown: 'none' })).toBeUndefined();
    expect(await budget.contextWindow({ feature })).toBe(128_000);
    expect(await budget.contextWindow({ feature })).toBe(128_000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('"my-local-model"');
    expect(String(warn.mock.calls[0]?.[0])).toContain('compaction.contextWindow');
  });

  it('is capped by a window learned from an overflow, whatever the source', async () => {
    const budget = createRequestBudget({ model: 'gpt-4o' });
    budget.learnWindow(20_000);
    budget.learnWindow(30_000);
    expect(budget.learnedWindow).toBe(20_000);
    expect(await budget.contextWindow()).toBe(20_000);
    expect(await budget.contextWindow({ option: 64_000 })).toBe(20_000);
  });

  it('remembers a feature option as the run window for the features that have none', async () => {
    const budget = createRequestBudget({ model: 'my-local-model' });
    expect(await budget.contextWindow({ unknown: 'none' })).toBeUndefined();
    await budget.contextWindow({ option: 16_000 });
    expect(await budget.contextWindow({ unknown: 'none' })).toBe(16_000);
  });
});
