import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { compactMessages } from '../compaction/compact-messages.js';
import { createCompactionHook } from '../compaction/compaction-hook.js';
import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { summarizeStrategy } from '../compaction/summarize.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import { LLMSummarizer } from '../core/llm-summarizer.js';
import { tool } from '../executor/tool.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { createAnthropic } from '../providers/anthropic.js';
import { createOpenAICompatible } from '../providers/openai-compatible.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { LoushoError } from './lousho-error.js';

function codeOf(run: () => unknown): { code: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    return {
      code: LoushoError.isInstance(error) ? error.code : `raw ${String(error)}`,
      message: String((error as Error).message),
    };
  }
  return { code: undefined, message: '' };
}

async function asyncCodeOf(run: () => Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  try {
    await run();
  } catch (error) {
    return {
      code: LoushoError.isInstance(error) ? error.code : `raw ${String(error)}`,
      message: String((error as Error).message),
    };
  }
  return { code: undefined, message: '' };
}

const model = () => mockModel(['ok']);
const unknownKey = { colour: 'blue' } as never;

describe('every options bag names an unknown key and the accepted ones', () => {
  it.each([
    ['createAgent', () => createAgent({ provider: model(), ...(unknownKey as object) })],
    ['limits', () => createAgent({ provider: model(), limits: { maxSteps: 3, ...(unknownKey as object) } })],
    ['createCompactionHook', () => createCompactionHook(unknownKey)],
    ['summarizeStrategy', () => summarizeStrategy({ model: model(), ...(unknownKey as object) })],
    ['twoPhaseStrategy', () => twoPhaseStrategy({ model: model(), ...(unknownKey as object) })],
    ['compactorStrategy', () => compactorStrategy(unknownKey)],
    ['agent.session', () => createAgent({ provider: model() }).session(unknownKey)],
    ['FileSessionStore', () => new FileSessionStore({ dir: '/tmp/x', ...(unknownKey as object) })],
    [
      'createOpenAICompatible',
      () => createOpenAICompatible({ baseURL: 'http://127.0.0.1:1', ...(unknownKey as object) }),
    ],
    ['createAnthropic', () => createAnthropic(unknownKey)],
    ['LLMSummarizer', () => new LLMSummarizer({ model: model(), ...(unknownKey as object) })],
    ['tool', () => tool({ name: 't', parameters: { type: 'object' }, execute: () => 1, ...(unknownKey as object) })],
  ])('%s', (_name, make) => {
    const { code, message } = codeOf(make);
    expect(code).toBe('LOUSHO_CONFIG_INVALID');
    expect(message).toContain("'colour'");
    expect(message).toMatch(/takes .+/);
  });

  it('send() and compactMessages() options too', async () => {
    const agent = createAgent({ provider: model() });
    expect((await asyncCodeOf(() => agent.send('hi', unknownKey))).code).toBe('LOUSHO_CONFIG_INVALID');
    expect((await asyncCodeOf(() => compactMessages([], unknownKey))).code).toBe('LOUSHO_CONFIG_INVALID');
  });
});

describe('wrong types and ranges are refused where they are given', () => {
  it.each([
    [
      'reserveOutputTokens at the window',
      () => createCompactionHook({ contextWindow: 8_000, reserveOutputTokens: 8_000 }),
    ],
    ['a negative maxOutputTokens', () => createAgent({ provider: model(), maxOutputTokens: -5 })],
    ['a temperature that is not a number', () => createAgent({ provider: model(), temperature: 'hot' as never })],
    ['an empty session id', () => createAgent({ provider: model() }).session({ id: '' })],
    ['a session id that is not a string', () => createAgent({ provider: model() }).session({ id: 42 as never })],
    [
      'a summarizer that is neither a model nor a Summarizer',
      () => createAgent({ provider: model(), summarizer: 42 as never }),
    ],
    ["the AI SDK's inputSchema on a tool", () => tool({ name: 't', inputSchema: {}, execute: () => 1 } as never)],
    ['maxCostUsd for a model without a price', () => createAgent({ provider: model(), limits: { maxCostUsd: 1 } })],
  ])('%s', (_name, make) => {
    expect(codeOf(make).code).toBe('LOUSHO_CONFIG_INVALID');
  });

  it('says how to give a price for maxCostUsd, and names parameters for inputSchema', () => {
    expect(codeOf(() => createAgent({ provider: model(), limits: { maxCostUsd: 1 } })).message).toContain(
      'registerModel(',
    );
    expect(codeOf(() => tool({ name: 't', inputSchema: {}, execute: () => 1 } as never)).message).toContain(
      'parameters',
    );
  });
});

describe('only typed errors leave the package', () => {
  it('estimateTokens(null) and a malformed message', () => {
    expect(codeOf(() => estimateTokens(null as never)).code).toBe('LOUSHO_CONFIG_INVALID');
    expect(codeOf(() => estimateTokens([null] as never)).code).toBe('LOUSHO_MESSAGE_INVALID');
  });

  it('agent.session({ store: {} })', () => {
    expect(codeOf(() => createAgent({ provider: model() }).session({ store: {} as never })).code).toBe(
      'LOUSHO_CONFIG_INVALID',
    );
  });

  it("a summarizer's plain Error through compactMessages(), kept as the cause", async () => {
    const boom = new Error('boom');
    const result = await compactMessages(readingTranscript(8, 3_000), {
      strategy: summarizeStrategy({ summarizer: { summarize: () => Promise.reject(boom) } }),
      contextWindow: 4_000,
      protectedTokens: 0,
    });
    expect(LoushoError.isInstance(result.error) && result.error.code).toBe('LOUSHO_STRATEGY_FAILED');
    expect(result.error?.cause).toBe(boom);
  });
});
