import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_PROMPT } from '../core/summary-prompt.js';
import { pinMessage } from '../messages/pin.js';
import type { Message } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { readingTranscript, toolTurn } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { compactMessages } from './compact-messages.js';
import { summarizeStrategy } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';
import type { CompactionInput } from './types.js';

function input(messages: Message[], protectedTokens: number, thresholdTokens = 1_000_000): CompactionInput {
  return {
    messages,
    estimateTokens: (list) => estimateTokens(list),
    countMessage: (m) => messageTokens(m),
    contextWindow: 128_000,
    protectedTokens,
    thresholdTokens,
  };
}

describe('summarizeStrategy', () => {
  it('replaces old turns with one user message where the first summarized message was', async () => {
    const summarizer = mockModel(['The user asked for a review; files 0-3 were read.']);
    const messages = readingTranscript(6);
    messages.push({ role: 'assistant', content: 'Reviewing the last file.' });
    const result = await summarizeStrategy({ model: summarizer }).compact(input(messages, 0));
    expect(result.summary).toBe('The user asked for a review; files 0-3 were read.');
    expect(result.messages[0]).toBe(messages[0]);
    expect(result.messages[1]).toEqual({
      role: 'user',
      content: '[Conversation summary]\nThe user asked for a review; files 0-3 were read.',
      metadata: { summary: true },
    });
    expect(result.messages.slice(2)).toEqual(messages.slice(-1));
  });

  it('sends the prompt as the system message and the conversation as the user message', async () => {
    const summarizer = mockModel(['s']);
    await summarizeStrategy({ model: summarizer, maxSummaryTokens: 300 }).compact(input(readingTranscript(3), 0));
    const [request] = summarizer.calls;
    expect(request?.maxOutputTokens).toBe(300);
    expect(request?.tools).toBeUndefined();
    expect(request?.messages[0]).toEqual({ role: 'system', content: DEFAULT_SUMMARY_PROMPT });
    expect(request?.messages[1]?.content).toContain('[assistant called read_file({"path":"src/file0.ts"})]');
    const custom = mockModel(['s']);
    await summarizeStrategy({ model: custom, prompt: 'Be brief.' }).compact(input(readingTranscript(3), 0));
    expect(custom.calls[0]?.messages[0]?.content).toBe('Be brief.');
  });

  it('keeps system and pinned messages in place and a pinned result with its whole turn', async () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'first question' },
      pinMessage({ role: 'user', content: 'Goal: keep me' }),
      ...toolTurn('a', 'read', { path: 'a' }, 'A'.repeat(3_000)),
      ...toolTurn('b', 'read', { path: 'b' }, 'B'.repeat(3_000)),
      { role: 'system', content: 'late system note' },
      ...toolTurn('c', 'read', { path: 'c' }, 'C'.repeat(3_000)),
      { role: 'assistant', content: 'last' },
    ];
    messages[6] = pinMessage(messages[6] as Message); // result 'b' pinned
    const result = await summarizeStrategy({ model: mockModel(['S']) }).compact(input(messages, 0));
    expect(
      result.messages.map((m) =>
        m.role === 'tool' ? `tool:${m.toolCallId}` : `${m.role}:${String(m.content).slice(0, 12)}`,
      ),
    ).toEqual([
      'system:sys',
      'user:[Conversatio',
      'user:Goal: keep m',
      'assistant:',
      'tool:b',
      'system:late system ',
      'assistant:last',
    ]);
  });

  it('always keeps the last message and the latest assistant turn with its results', async () => {
    const messages = readingTranscript(4);
    const result = await summarizeStrategy({ model: mockModel(['S']) }).compact(input(messages, 0));
    expect(result.messages.slice(-2)).toEqual(messages.slice(-2));
    const single: Message[] = [{ role: 'user', content: 'only one' }];
    const none = await summarizeStrategy({ model: mockModel([]) }).compact(input(single, 0));
    expect(none.messages).toBe(single);
  });

  it('keeps a turn that straddles the protected tail whole', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'x', name: 'a', arguments: {} },
          { id: 'y', name: 'b', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'x', content: 'X'.repeat(2_000) },
      { role: 'tool', toolCallId: 'y', content: 'Y'.repeat(50) },
      { role: 'assistant', content: 'final words' },
    ];
    const tail = messageTokens(messages[3] as Message) + messageTokens(messages[4] as Message);
    const result = await summarizeStrategy({ model: mockModel(['S']) }).compact(input(messages, tail));
    expect(result.messages.slice(1)).toEqual(messages.slice(1));
  });

  it('falls back to pruning and reports the error when the summarizer throws or returns nothing', async () => {
    for (const failure of [new Error('summarizer down'), '   ']) {
      const messages = readingTranscript(5);
      const result = await summarizeStrategy({ model: mockModel([failure]) }).compact(input(messages, 0));
      expect(result.error?.message).toMatch(/summarizer down|returned no summary text/);
      expect(result.summary).toBeUndefined();
      expect(result.appliedStrategy).toBe('prune-tool-results');
      expect(result.prunedToolCallIds).toEqual(['call_0', 'call_1', 'call_2', 'call_3']);
    }
  });

  it('reports the summary call so a run can count it', async () => {
    const calls: unknown[] = [];
    const summarizer = mockModel([{ text: 'S', usage: { inputTokens: 900, outputTokens: 12 } }], {
      modelId: 'gpt-4o-mini',
    });
    await summarizeStrategy({ model: summarizer }).compact({
      ...input(readingTranscript(3), 0),
      onModelCall: (c) => calls.push(c),
    });
    expect(calls).toEqual([
      {
        provider: 'mock',
        model: 'gpt-4o-mini',
        usage: { inputTokens: 900, outputTokens: 12, cachedInputTokens: undefined },
        purpose: 'compaction',
        startTime: expect.any(Number),
        endTime: expect.any(Number),
      },
    ]);
  });

  it('rejects missing or invalid options with LOUSHO_CONFIG_INVALID', () => {
    expect(() => summarizeStrategy({} as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
    expect(() => twoPhaseStrategy({ model: mockModel([]), protectedTokens: -5 })).toThrow(/protectedTokens/);
    expect(() => summarizeStrategy({ model: mockModel([]), maxSummaryTokens: 0 })).toThrow(/maxSummaryTokens/);
  });
});

describe('twoPhaseStrategy', () => {
  it('only prunes when that gets under the threshold', async () => {
    const summarizer = mockModel([]);
    const messages = readingTranscript(8);
    const result = await twoPhaseStrategy({ model: summarizer }).compact(input(messages, 0, 5_000));
    expect(summarizer.calls).toHaveLength(0);
    expect(result.prunedToolCallIds).toHaveLength(7);
    expect(result.appliedStrategy).toBe('prune-tool-results');
  });

  it('summarizes the pruned conversation when pruning is not enough', async () => {
    const summarizer = mockModel(['S']);
    const messages = readingTranscript(8);
    const result = await twoPhaseStrategy({ model: summarizer }).compact(input(messages, 0, 10));
    expect(summarizer.calls[0]?.messages[1]?.content).toContain('[pruned: read_file({"path":"src/file0.ts"}) result,');
    expect(result.summary).toBe('S');
    expect(result.prunedToolCallIds).toHaveLength(7);
    expect(result.tokensBefore).toBe(estimateTokens(messages));
    expect(result.messages).toHaveLength(4);
  });

  it('keeps the pruned conversation and reports the error when the summarizer fails', async () => {
    const messages = readingTranscript(8);
    const result = await twoPhaseStrategy({ model: mockModel([new Error('503')]) }).compact(input(messages, 0, 10));
    expect(result.error?.message).toBe('503');
    expect(result.appliedStrategy).toBe('prune-tool-results');
    expect(result.messages).toHaveLength(messages.length);
    expect(result.prunedToolCallIds).toHaveLength(7);
  });
});

describe('compactMessages', () => {
  it('runs a strategy once whatever the size and never modifies its input', async () => {
    const history = readingTranscript(4);
    const copy = structuredClone(history);
    const result = await compactMessages(history, { protectedTokens: 0, model: 'gpt-4o-mini' });
    expect(history).toEqual(copy);
    expect(result.messages).not.toBe(history);
    expect(result.prunedToolCallIds).toEqual(['call_0', 'call_1', 'call_2']);
    expect(result.tokensBefore).toBe(estimateTokens(history, 'gpt-4o-mini'));
    expect(result.tokensAfter).toBe(estimateTokens(result.messages, 'gpt-4o-mini'));
    expect(result.strategy).toBe('prune-tool-results');
    const nothing = await compactMessages(history.slice(0, 2));
    expect(nothing.tokensAfter).toBe(nothing.tokensBefore);
  });

  it('rejects bad options and malformed messages with typed errors', async () => {
    const history = readingTranscript(2);
    await expect(compactMessages(history, { thresholdPercent: 1.5 })).rejects.toMatchObject({
      code: 'LOUSHO_CONFIG_INVALID',
      message: expect.stringContaining('thresholdPercent must be a share of the context window in (0, 1]'),
    });
    await expect(compactMessages(history, { thresholdPercent: 0 })).rejects.toMatchObject({
      code: 'LOUSHO_CONFIG_INVALID',
    });
    await expect(compactMessages(history, { protectedTokens: -1 })).rejects.toMatchObject({
      code: 'LOUSHO_CONFIG_INVALID',
      message: expect.stringContaining('protectedTokens'),
    });
    await expect(compactMessages(history, { strategy: { name: 'x' } as never })).rejects.toMatchObject({
      code: 'LOUSHO_CONFIG_INVALID',
      message: expect.stringContaining('CompactionStrategy'),
    });
    await expect(compactMessages([{ role: 'tool', content: 'x' } as never])).rejects.toMatchObject({
      code: 'LOUSHO_MESSAGE_INVALID',
    });
  });
});
