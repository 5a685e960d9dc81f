import { describe, expect, it } from 'vitest';
import { Compactor } from '../core/compaction.js';
import { LLMSummarizer } from '../core/llm-summarizer.js';
import type { Summarizer } from '../core/summarizer.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { compactMessages } from './compact-messages.js';
import { compactorStrategy, messageAdapter } from './compactor-strategy.js';
import { SUMMARY_HEADER, summarizeStrategy } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';

const BAD_SUMMARIES: [string, unknown][] = [
  ['an empty string', ''],
  ['whitespace', ' \n\t '],
  ['null', null],
  ['a number', 42],
  ['an object', { text: 'summary' }],
];

const returning = (value: unknown): Summarizer<Message> => ({ summarize: async () => value as string });
const hasSummary = (messages: Message[]) =>
  messages.some((m) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_HEADER));

describe('a summary is checked before it replaces anything', () => {
  const history = readingTranscript(10, 4_000);

  it.each(BAD_SUMMARIES)(
    'summarize and two-phase treat %s as a failure and fall back to pruning',
    async (_name, value) => {
      for (const strategy of [
        summarizeStrategy({ summarizer: returning(value) }),
        twoPhaseStrategy({ summarizer: returning(value) }),
      ]) {
        // At 3,000 tokens pruning alone is not enough, so two-phase calls the summarizer too.
        const result = await compactMessages(history, { strategy, protectedTokens: 0, contextWindow: 3_000 });
        expect(hasSummary(result.messages)).toBe(false);
        expect((result.error as { code?: string }).code).toBe('LOUSHO_STRATEGY_FAILED');
        expect(result.error?.message).toContain('no summary text');
        expect(result.appliedStrategy).toBe('prune-tool-results');
        expect(result.prunedToolCallIds.length).toBeGreaterThan(0);
      }
    },
  );

  it.each(BAD_SUMMARIES)(
    'the Compactor treats %s as a failure and truncates instead, with a typed error',
    async (_name, value) => {
      const compactor = new Compactor<Message>({
        adapter: messageAdapter((m) => estimateTokens([m]) - estimateTokens([])),
        budgetTokens: 4_000,
        summarizer: returning(value),
      });
      const result = await compactor.recover(history);
      expect(result.action).toBe('summarized');
      expect(result.error?.code).toBe('LOUSHO_STRATEGY_FAILED');
      expect(typeof result.summary).toBe('string');
      expect(result.summary).not.toBe('');
      expect(result.summary).not.toContain('null');

      const viaStrategy = await compactMessages(history, {
        strategy: compactorStrategy({ summarizer: returning(value) }),
        contextWindow: 8_000,
      });
      expect((viaStrategy.error as { code?: string }).code).toBe('LOUSHO_STRATEGY_FAILED');
    },
  );

  it('LLMSummarizer falls back to truncation when its model answers with no usable text', async () => {
    const fallbacks: Error[] = [];
    for (const reply of ['', '   ']) {
      const summarizer = new LLMSummarizer<Message>({
        model: mockModel([reply]),
        onFallback: (e) => fallbacks.push(e),
      });
      const text = await summarizer.summarize(history.slice(0, 4), { toText: (m) => String(m.content) });
      expect(text.length).toBeGreaterThan(0);
    }
    expect(fallbacks.map((e) => (e as { code?: string }).code)).toEqual([
      'LOUSHO_STRATEGY_FAILED',
      'LOUSHO_STRATEGY_FAILED',
    ]);
  });
});
