/**
 * The opt-in layers, each on its own: `fold` folds a pruned run down to the low-water mark,
 * so the next steps only append; `minimumGain` does not apply a compaction that frees less
 * than its share, and the next attempt waits until one could. Without them the hook runs the
 * strategy as it is (see seed-rules.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { prose } from '../test-support/text.js';
import { proseReadTool, readingTranscript } from '../test-support/transcripts.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import { FOLD_STEP_NAME } from './fold-turns.js';
import { DEFAULT_LOW_WATER_MARK, foldLayer } from './layers.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { summaryMessage } from './summarize.js';
import type { CompactionStrategy } from './types.js';

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const WINDOW = 16_000;
const THRESHOLD = WINDOW * 0.9;

const readTool = proseReadTool;

function reads(n: number) {
  const sizes: number[] = [];
  const model = mockModel((request, index) => {
    sizes.push(estimateTokens(request));
    if (index >= n) return 'done';
    return { toolCalls: [{ id: `r${index}`, name: 'read', arguments: { path: `src/f${index}.ts` } }] } as MockReply;
  });
  return { model, sizes };
}

/** Counts the calls of the default prune strategy. */
function counted(): { strategy: CompactionStrategy; calls: () => number } {
  const inner = pruneToolResultsStrategy();
  let calls = 0;
  return {
    strategy: {
      name: inner.name,
      compact(input) {
        calls++;
        return inner.compact(input);
      },
    },
    calls: () => calls,
  };
}

describe('the fold layer', () => {
  it('folds a pruned run down to half the threshold, after which the steps only append until the threshold', async () => {
    const { model, sizes } = reads(250);
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: model,
      tools: [readTool(1_600)],
      hooks: [createCompactionHook({ contextWindow: WINDOW, protectedTokens: 2_000, fold: true })],
      limits: { maxSteps: 300 },
      onEvent: (e) => events.push(e),
    });
    await agent.send('Read the files.');
    const dones = events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    const folds = dones.filter((d) => d.appliedStrategy === FOLD_STEP_NAME);
    expect(folds.length).toBeGreaterThan(0);
    for (const done of folds) expect(done.tokensAfter).toBeLessThanOrEqual(THRESHOLD * DEFAULT_LOW_WATER_MARK);
    // Between two compactions the request only grows: from the low-water mark to the threshold.
    const steps = dones.map((d) => d.step as number);
    for (let k = 1; k < steps.length; k++) {
      const between = sizes.slice(steps[k - 1] as number, (steps[k] as number) - 1);
      for (let i = 1; i < between.length; i++) expect(between[i]).toBeGreaterThan(between[i - 1] as number);
      expect(between.length).toBeGreaterThan(5);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(THRESHOLD);
  });
});

describe('the minimum gain layer', () => {
  it('does not apply a compaction that frees less than 10% of the threshold, and does not retry it at every step', async () => {
    // A task the hook cannot shrink (the first user message) keeps the request over the
    // threshold; each step adds a small result, so what a compaction could free stays small.
    const { model, sizes } = reads(12);
    const { strategy, calls } = counted();
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: model,
      tools: [readTool(300)],
      hooks: [createCompactionHook({ contextWindow: 20_000, strategy, protectedTokens: 0, minimumGain: 0.1 })],
      onEvent: (e) => events.push(e),
    });
    const result = await agent.send(`Read the files. ${prose(3, 78_000)}`);
    // Over the threshold (18,000) at every step, never over the window.
    expect(Math.min(...sizes)).toBeGreaterThan(18_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20_000);
    expect(result.text).toBe('done');
    const dones = events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    expect(dones.length).toBeGreaterThan(0);
    expect(dones.every((d) => d.unchanged === true && d.prunedToolCallIds.length === 0)).toBe(true);
    // 13 steps over the threshold, but the strategy ran only when the request had grown enough to free more.
    expect(calls()).toBeLessThan(6);
    expect(
      result.messages.filter((m) => m.role === 'tool').every((m) => !String(m.content).startsWith('[pruned')),
    ).toBe(true);
  });

  it('leaves a result already under the low-water mark as the strategy wrote it (a summary with results it kept whole)', async () => {
    // A strategy that gets far under the threshold but keeps old results whole: the fold has nothing to do.
    const messages = readingTranscript(12, 2_000);
    const kept = [messages[0] as Message, summaryMessage('read files 0 to 9'), ...messages.slice(-4)];
    const summarizing: CompactionStrategy = {
      name: 'summary-keeping-results',
      compact: (input) => ({
        messages: kept,
        tokensBefore: input.estimateTokens(input.messages),
        tokensAfter: 0,
        prunedToolCallIds: [],
      }),
    };
    const count = (list: readonly Message[]) => estimateTokens(list, 'gpt-4o');
    const input = {
      messages,
      estimateTokens: count,
      contextWindow: 100_000,
      protectedTokens: 0,
      thresholdTokens: count(messages),
    };
    expect(count(kept)).toBeLessThan(input.thresholdTokens * DEFAULT_LOW_WATER_MARK);
    const result = await foldLayer(summarizing).compact(input);
    expect(result.messages).toBe(kept);
    expect(result.prunedToolCallIds).toEqual([]);
  });
});
