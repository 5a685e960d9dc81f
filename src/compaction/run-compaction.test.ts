import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { compactionDoneEvent, compactionInfo } from './compaction-report.js';
import { lowWaterMarkLayer, minimumGainLayer } from './layers.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { runCompaction } from './run-compaction.js';
import { summaryMessage } from './summarize.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

function inputOf(messages: Message[], thresholdTokens = 1_000): CompactionInput {
  return {
    messages,
    estimateTokens: (list) => estimateTokens(list, 'gpt-4o'),
    contextWindow: 100_000,
    protectedTokens: 0,
    thresholdTokens,
  };
}

function attemptWith(strategy: CompactionStrategy, messages: Message[], thresholdTokens = 1_000) {
  const input = inputOf(messages, thresholdTokens);
  return runCompaction(strategy, input, input.estimateTokens(messages));
}

const returning = (name: string, make: (messages: Message[]) => unknown): CompactionStrategy => ({
  name,
  compact: (input) => make(input.messages) as never,
});

describe('runCompaction', () => {
  it('says from which message the result differs, so the hook rewrites only from there', async () => {
    const messages = readingTranscript(6, 3_000);
    const at = messages.findIndex((m) => m.role === 'tool');
    const shorter = returning('one-result', (list) => ({
      messages: list.map((m, i) => (i === at ? { ...m, content: 'short' } : m)),
      tokensBefore: 0,
      tokensAfter: 0,
      prunedToolCallIds: [],
    }));
    const outcome = await attemptWith(shorter, messages);
    expect(outcome.changed).toBe(true);
    expect(at).toBeGreaterThan(0);
    expect(outcome.from).toBe(at);
    const same = await attemptWith(
      returning('same', (list) => ({ messages: [...list], tokensBefore: 0, tokensAfter: 0, prunedToolCallIds: [] })),
      messages,
    );
    expect(same.changed).toBe(false);
    expect(same.from).toBeUndefined();
  });

  it('applies a valid, smaller result and reports what changed', async () => {
    const messages = readingTranscript(4, 3_000);
    const outcome = await attemptWith(pruneToolResultsStrategy(), messages);
    expect(outcome.changed).toBe(true);
    expect(outcome.prunedToolCallIds).toEqual(['call_0', 'call_1', 'call_2']);
    expect(outcome.tokensAfter).toBe(estimateTokens(outcome.messages, 'gpt-4o'));
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    expect(outcome.error).toBeUndefined();
  });

  it('refuses a result that is larger than its input, keeping the input, with LOUSHO_STRATEGY_RESULT_INVALID', async () => {
    const messages = readingTranscript(2);
    const grow = returning('grow', (m) => ({
      messages: [...m, { role: 'user', content: 'more text than before '.repeat(50) }],
      tokensBefore: 0,
      tokensAfter: 0,
      prunedToolCallIds: [],
    }));
    const outcome = await attemptWith(grow, messages);
    expect(outcome.changed).toBe(false);
    expect(outcome.messages).toBe(messages);
    expect(outcome.error?.code).toBe('LOUSHO_STRATEGY_RESULT_INVALID');
    expect(outcome.error?.message).toMatch(/made the request larger/);
  });

  it('refuses a result that separates a call from its result', async () => {
    const messages = readingTranscript(3);
    const drop = returning('drop-result', (m) => ({ messages: m.filter((_, i) => i !== 3), prunedToolCallIds: [] }));
    const outcome = await attemptWith(drop, messages);
    expect(outcome.changed).toBe(false);
    expect(outcome.error?.code).toBe('LOUSHO_STRATEGY_RESULT_INVALID');
    expect(outcome.error?.message).toMatch(/broke the transcript/);
  });

  it('turns a thrown plain error into LOUSHO_STRATEGY_FAILED with the original as cause', async () => {
    const boom = new Error('boom');
    const outcome = await attemptWith(
      returning('throws', () => {
        throw boom;
      }),
      readingTranscript(2),
    );
    expect(outcome.error?.code).toBe('LOUSHO_STRATEGY_FAILED');
    expect(outcome.error?.cause).toBe(boom);
    expect(outcome.changed).toBe(false);
  });

  it('only validates: a summary left above the threshold is applied as it came, the summary rule being a layer (summary-guard.ts)', async () => {
    const messages = readingTranscript(6, 3_000);
    const keepAll = returning('summarize-nothing', (m) => ({
      messages: [m[0], summaryMessage('short'), ...m.slice(4)],
      tokensBefore: 0,
      tokensAfter: 0,
      prunedToolCallIds: [],
      summary: 'short',
    }));
    const outcome = await attemptWith(keepAll, messages, 500);
    expect(outcome.tokensAfter).toBeGreaterThan(500);
    expect(outcome.changed).toBe(true);
    expect(outcome.error).toBeUndefined();
    expect(outcome.summary).toBe('short');
  });

  it('hands back the input itself when nothing changed, and builds the done event and onCompaction info from it', async () => {
    const messages = readingTranscript(1);
    const outcome = await attemptWith(pruneToolResultsStrategy(), messages);
    expect(outcome.changed).toBe(false);
    expect(outcome.messages).toBe(messages);
    expect(compactionDoneEvent({ trigger: 'manual' }, outcome)).toEqual({
      type: 'compaction.done',
      strategy: 'prune-tool-results',
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.tokensBefore,
      prunedToolCallIds: [],
      unchanged: true,
      trigger: 'manual',
    });
    expect(compactionInfo(outcome, { contextWindow: 8_000, thresholdTokens: 7_200 })).toEqual({
      strategy: 'prune-tool-results',
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.tokensBefore,
      prunedToolCallIds: [],
      contextWindow: 8_000,
      thresholdTokens: 7_200,
    });
  });

  describe('the opt-in layers through the runner', () => {
    // Prunes when the size to get under is the real threshold; summarizes when asked for less.
    const summarizing = (fail = false): CompactionStrategy & { asked: number[] } => {
      const asked: number[] = [];
      return {
        name: 'two-phase-like',
        asked,
        fallback: pruneToolResultsStrategy(),
        compact(input) {
          asked.push(input.thresholdTokens);
          if (input.thresholdTokens >= 1_000) return pruneToolResultsStrategy().compact(input);
          if (fail) throw new Error('summarizer down');
          const [system, task] = input.messages;
          return {
            messages: [
              system as Message,
              task as Message,
              summaryMessage('read files 0 to 5'),
              ...input.messages.slice(-2),
            ],
            tokensBefore: 0,
            tokensAfter: 0,
            prunedToolCallIds: [],
            summary: 'read files 0 to 5',
          };
        },
      };
    };
    const run = (strategy: CompactionStrategy, messages: Message[]) => {
      const input = inputOf(messages, 1_000);
      return runCompaction(strategy, input, input.estimateTokens(messages));
    };

    it('lowWaterMark asks the strategy for its share of the threshold; the summary is judged against the threshold itself', async () => {
      const strategy = summarizing();
      const outcome = await run(lowWaterMarkLayer(strategy, 0.5), readingTranscript(6, 700));
      expect(strategy.asked).toEqual([500]);
      expect(outcome.summary).toBe('read files 0 to 5');
      expect(outcome.tokensAfter).toBeLessThan(1_000);
      expect(outcome.error).toBeUndefined();
    });

    it('without a layer, the strategy is asked for the threshold and its result kept as it is', async () => {
      const strategy = summarizing();
      const outcome = await run(strategy, readingTranscript(6, 700));
      expect(strategy.asked).toEqual([1_000]);
      expect(outcome.summary).toBeUndefined();
      expect(outcome.prunedToolCallIds.length).toBeGreaterThan(0);
    });

    it('minimumGain leaves the transcript as it is when the strategy frees less than its share', async () => {
      const strategy = summarizing();
      const messages = readingTranscript(6, 700);
      const outcome = await run(minimumGainLayer(strategy, 5), messages);
      expect(strategy.asked).toEqual([1_000]);
      expect(outcome.changed).toBe(false);
      expect(outcome.messages).toBe(messages);
      const kept = await run(minimumGainLayer(summarizing(), 0.01), messages);
      expect(kept.changed).toBe(true);
    });
  });
});
