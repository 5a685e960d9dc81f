import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoushoError } from '../errors/lousho-error.js';
import { isPinned } from '../messages/pin.js';
import type { Message, ToolCall } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { type Scenario, scenario, transcript } from '../test-support/compaction-scenarios.js';
import { type MockModel, mockModel } from '../testing/mock-model.js';
import { type CompactMessagesResult, compactMessages } from './compact-messages.js';
import { isPrunedMarker, prunedMarker } from './marker.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { summarizeStrategy } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';
import type { CompactionStrategy } from './types.js';

// ---------------------------------------------------------------------------
// Random transcripts
// ---------------------------------------------------------------------------

const RUNS = 200;
const SUMMARY_TEXT = 'a short summary';
const SUMMARY_PREFIX = '[Conversation summary]\n';

// ---------------------------------------------------------------------------
// Running every strategy on one scenario
// ---------------------------------------------------------------------------

type Summarizer = 'working' | 'throwing' | 'empty';

interface Variant {
  kind: 'prune' | 'summarize' | 'two-phase';
  summarizer?: Summarizer;
}

const VARIANTS: readonly Variant[] = [
  { kind: 'prune' },
  { kind: 'summarize', summarizer: 'working' },
  { kind: 'summarize', summarizer: 'throwing' },
  { kind: 'summarize', summarizer: 'empty' },
  { kind: 'two-phase', summarizer: 'working' },
  { kind: 'two-phase', summarizer: 'throwing' },
  { kind: 'two-phase', summarizer: 'empty' },
];

function summarizerModel(summarizer: Summarizer): MockModel {
  if (summarizer === 'working') return mockModel(() => SUMMARY_TEXT);
  if (summarizer === 'throwing') return mockModel(() => new Error('down'));
  return mockModel(() => '');
}

interface Outcome {
  variant: Variant;
  label: string;
  result: CompactMessagesResult;
  /** The summarizer, created fresh for this call so its `calls` are this call's. */
  model: MockModel | undefined;
}

function makeStrategy(variant: Variant, model: MockModel | undefined): CompactionStrategy {
  if (variant.kind === 'prune' || model === undefined) return pruneToolResultsStrategy();
  return variant.kind === 'summarize' ? summarizeStrategy({ model }) : twoPhaseStrategy({ model });
}

function runCompaction(s: Scenario, strategy: CompactionStrategy): Promise<CompactMessagesResult> {
  return compactMessages(s.messages, {
    strategy,
    contextWindow: s.contextWindow,
    ...(s.protectedTokens === undefined ? {} : { protectedTokens: s.protectedTokens }),
    ...(s.thresholdPercent === undefined ? {} : { thresholdPercent: s.thresholdPercent }),
  });
}

async function compactWithEveryStrategy(s: Scenario): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const variant of VARIANTS) {
    const model = variant.summarizer === undefined ? undefined : summarizerModel(variant.summarizer);
    const result = await runCompaction(s, makeStrategy(variant, model));
    const label =
      variant.summarizer === undefined ? variant.kind : `${variant.kind} (${variant.summarizer} summarizer)`;
    outcomes.push({ variant, label, result, model });
  }
  return outcomes;
}

/** Asserts `check` for every strategy on every random scenario. */
function forEveryStrategy(
  check: (s: Scenario, outcome: Outcome) => void,
  examples: readonly Scenario[] = [],
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      for (const outcome of await compactWithEveryStrategy(s)) check(s, outcome);
    }),
    { numRuns: RUNS, examples: examples.map((s): [Scenario] => [s]) },
  );
}

// ---------------------------------------------------------------------------
// Oracles, written independently of the library's helpers
// ---------------------------------------------------------------------------

const DEFAULT_THRESHOLD_PERCENT = 0.9;
const DEFAULT_PROTECTED_TOKENS = 40_000;

function threshold(s: Scenario): number {
  const byShare = Math.floor(s.contextWindow * (s.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT));
  return Math.max(1, Math.min(byShare, s.contextWindow));
}

/** The protected tail compactMessages promises: the requested size (or the default), at most half the threshold. */
function effectiveProtectedTokens(s: Scenario): number {
  const cap = Math.floor(threshold(s) / 2);
  if (s.protectedTokens === undefined) return Math.min(DEFAULT_PROTECTED_TOKENS, cap);
  // A value you set is used as it is, unless it is at or above the threshold.
  return s.protectedTokens >= threshold(s) ? cap : s.protectedTokens;
}

/** Index where the longest suffix whose message tokens add up to at most `budget` starts. */
function tailStart(messages: readonly Message[], budget: number): number {
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    used += messageTokens(messages[i] as Message);
    if (used > budget) return i + 1;
  }
  return 0;
}

function lastAssistantIndex(messages: readonly Message[]): number {
  return messages.findLastIndex((m) => m.role === 'assistant');
}

/** Index of the first message strategies must never touch: the latest assistant message, or the last message. */
function unreadStart(messages: readonly Message[]): number {
  const latest = lastAssistantIndex(messages);
  return latest >= 0 ? latest : Math.max(messages.length - 1, 0);
}

function expectEndsWith(output: readonly Message[], suffix: readonly Message[], what: string): void {
  expect(output.length, `${what}: output shorter than the suffix`).toBeGreaterThanOrEqual(suffix.length);
  expect(output.slice(output.length - suffix.length), what).toStrictEqual(suffix);
}

function isSummaryMessage(message: Message): boolean {
  return typeof message.content === 'string' && message.content.startsWith(SUMMARY_PREFIX);
}

function expectCallsPaired(messages: readonly Message[], label: string): void {
  const results = new Map<string, number>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) {
        expect(results.has(call.id), `${label}: call ${call.id} appears twice`).toBe(false);
        results.set(call.id, 0);
      }
    } else if (m.role === 'tool') {
      const seen = results.get(m.toolCallId);
      expect(seen, `${label}: result ${m.toolCallId} has no earlier call`).toBeDefined();
      results.set(m.toolCallId, (seen ?? 0) + 1);
    }
  }
  for (const [id, count] of results) expect(count, `${label}: results of call ${id}`).toBe(1);
}

/** True when `sub` is `full` with some messages left out (deep-equal messages, same order). */
function isSubsequence(sub: readonly Message[], full: readonly Message[]): boolean {
  let j = 0;
  for (const m of sub) {
    while (j < full.length && !isDeepStrictEqual(full[j], m)) j++;
    if (j === full.length) return false;
    j++;
  }
  return true;
}

async function pruneAlone(s: Scenario): Promise<CompactMessagesResult> {
  return runCompaction(s, pruneToolResultsStrategy());
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

describe('compaction strategies on random transcripts', () => {
  it('never separate a tool call from its one result', async () => {
    await forEveryStrategy((s, { label, result }) => {
      expectCallsPaired(s.messages, 'input');
      expectCallsPaired(result.messages, label);
    });
  });

  it('keep system and pinned messages unchanged and in their order', async () => {
    const kept = (messages: readonly Message[]) => messages.filter((m) => m.role === 'system' || isPinned(m));
    await forEveryStrategy((s, { label, result }) => {
      expect(kept(result.messages), label).toStrictEqual(kept(s.messages));
    });
  });

  it('end the output with the protected tail of the input, unchanged', async () => {
    await forEveryStrategy((s, { label, result }) => {
      const tail = s.messages.slice(tailStart(s.messages, effectiveProtectedTokens(s)));
      expectEndsWith(result.messages, tail, `${label}: protected tail`);
    });
  });

  it('keep the last message, the latest assistant message and the results after it unchanged', async () => {
    await forEveryStrategy((s, { label, result }) => {
      expectEndsWith(result.messages, s.messages.slice(unreadStart(s.messages)), `${label}: unread part`);
    });
  });

  it('never modify the input array or its messages, and return a new array', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const before = structuredClone(s.messages);
        const length = s.messages.length;
        for (const { label, result } of await compactWithEveryStrategy(s)) {
          expect(s.messages, label).toStrictEqual(before);
          expect(s.messages.length, label).toBe(length);
          expect(result.messages, label).not.toBe(s.messages);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('report tokensBefore and tokensAfter as the estimates of the input and the output', async () => {
    await forEveryStrategy((s, { label, result }) => {
      expect(result.tokensBefore, label).toBe(estimateTokens(s.messages));
      expect(result.tokensAfter, label).toBe(estimateTokens(result.messages));
    });
  });

  it('never increase the token count by pruning', async () => {
    // Found by this property: a result only a little longer than its marker, or one of repeated characters, is
    // cheaper in tokens than the marker that replaces it (pruning decides by characters, not tokens).
    const resultCheaperThanItsMarker = (content: string): Scenario => ({
      messages: [
        { role: 'user', content: 'Find the deploy docs.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'x', arguments: {} }] },
        { role: 'tool', toolCallId: 'c1', content },
        { role: 'assistant', content: 'Done.' },
      ],
      protectedTokens: 0,
      contextWindow: 128_000,
      thresholdPercent: undefined,
    });
    const examples = [
      resultCheaperThanItsMarker('No results found for that query in the deploy docs today.'),
      resultCheaperThanItsMarker('-'.repeat(200)),
    ];
    await forEveryStrategy((s, { variant, label, result }) => {
      // A working summarizer may write a summary longer than what it replaces; everything else only prunes.
      if (variant.summarizer === 'working') return;
      expect(result.tokensAfter, label).toBeLessThanOrEqual(result.tokensBefore);
      expect(estimateTokens(result.messages), label).toBeLessThanOrEqual(estimateTokens(s.messages));
    }, examples);
  });

  it('pruning replaces only old, unpinned tool results longer than their marker (in characters and tokens), and only with that marker', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { messages: output, prunedToolCallIds } = await pruneAlone(s);
        const input = s.messages;
        expect(output).toHaveLength(input.length);
        const end = Math.min(tailStart(input, effectiveProtectedTokens(s)), Math.max(lastAssistantIndex(input), 0));
        const calls = new Map<string, ToolCall>();
        const expectedIds: string[] = [];
        input.forEach((m, i) => {
          const out = output[i] as Message;
          if (m.role === 'assistant') for (const call of m.toolCalls ?? []) calls.set(call.id, call);
          const text = typeof m.content === 'string' ? m.content : '';
          if (m.role !== 'tool' || i >= end || isPinned(m) || isPrunedMarker(text)) {
            expect(out, `message ${i} must not change`).toBe(m);
            return;
          }
          const call = calls.get(m.toolCallId);
          const marker = prunedMarker(call?.name ?? 'tool', call?.arguments ?? {}, text.length);
          const stub: Message = { ...m, content: marker };
          if (text.length <= marker.length || messageTokens(stub) >= messageTokens(m)) {
            expect(out, `message ${i} is shorter than its marker, in characters or tokens`).toBe(m);
            return;
          }
          expect(out, `message ${i} is an old result`).toStrictEqual({ ...m, content: marker });
          expectedIds.push(m.toolCallId);
        });
        expect(prunedToolCallIds).toStrictEqual(expectedIds);
      }),
      { numRuns: RUNS },
    );
  });

  it('pruning twice prunes nothing more', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const once = await pruneAlone(s);
        const twice = await runCompaction({ ...s, messages: once.messages }, pruneToolResultsStrategy());
        expect(twice.prunedToolCallIds).toStrictEqual([]);
        expect(twice.messages).toStrictEqual(once.messages);
      }),
      { numRuns: RUNS },
    );
  });

  it('a working summarizer leaves exactly one summary, a user message, and keeps the rest in order', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const pruned = await pruneAlone(s);
        const outcomes = await compactWithEveryStrategy(s);
        for (const { variant, label, result, model } of outcomes) {
          if (variant.summarizer !== 'working' || model === undefined) continue;
          const summaries = result.messages.filter(isSummaryMessage);
          if (result.error !== undefined) {
            // The one runner rejects a summary that grew the request or left it above the
            // threshold, and keeps exactly what pruning alone produces.
            expect((result.error as LoushoError).code, label).toBe('LOUSHO_SUMMARY_REJECTED');
            expect(result.summary, label).toBeUndefined();
            expect(summaries, label).toHaveLength(0);
            expect(result.appliedStrategy, label).toBe('prune-tool-results');
            expect(result.messages, label).toStrictEqual(pruned.messages);
            continue;
          }
          // What the summary replaces: the input for summarize, the pruned transcript for two-phase.
          const source = variant.kind === 'summarize' ? s.messages : pruned.messages;
          if (variant.kind === 'two-phase' && pruned.tokensAfter <= threshold(s)) {
            expect(model.calls, `${label}: summarized although pruning was enough`).toHaveLength(0);
          }
          if (result.summary === undefined) {
            expect(summaries, label).toHaveLength(0);
            expect(model.calls, label).toHaveLength(0);
            expect(result.messages, label).toStrictEqual(source);
            continue;
          }
          expect(result.summary, label).toBe(SUMMARY_TEXT);
          expect(model.calls, label).toHaveLength(1);
          expect(summaries, label).toHaveLength(1);
          const summary = summaries[0] as Message;
          expect(summary.role, label).toBe('user');
          expect(summary.content, label).toBe(`${SUMMARY_PREFIX}${SUMMARY_TEXT}`);
          const rest = result.messages.filter((m) => m !== summary);
          expect(rest.length, `${label}: nothing was folded`).toBeLessThan(source.length);
          expect(isSubsequence(rest, source), `${label}: kept messages out of order or changed`).toBe(true);
          if (variant.kind === 'two-phase') expect(result.appliedStrategy, label).toBe('summarize');
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('a failing summarizer falls back to exactly what pruning alone produces and reports the error', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const pruned = await pruneAlone(s);
        for (const { variant, label, result, model } of await compactWithEveryStrategy(s)) {
          if (variant.summarizer === undefined || variant.summarizer === 'working' || model === undefined) continue;
          expect(result.summary, label).toBeUndefined();
          expect(result.messages.some(isSummaryMessage), label).toBe(false);
          if (model.calls.length === 0) {
            // Nothing to summarize: no call, no error.
            expect(result.error, label).toBeUndefined();
            const expected = variant.kind === 'summarize' ? s.messages : pruned.messages;
            expect(result.messages, label).toStrictEqual(expected);
            continue;
          }
          expect(model.calls, label).toHaveLength(1);
          expect(result.error, label).toBeInstanceOf(Error);
          if (variant.summarizer === 'throwing') {
            // A typed error with a code; the summarizer's own error is its cause.
            expect((result.error as LoushoError).code, label).toBe('LOUSHO_STRATEGY_FAILED');
            expect((result.error?.cause as Error | undefined)?.message, label).toBe('down');
          }
          expect(result.appliedStrategy, label).toBe('prune-tool-results');
          expect(result.messages, label).toStrictEqual(pruned.messages);
          expect(result.prunedToolCallIds, label).toStrictEqual(pruned.prunedToolCallIds);
          expect(result.tokensAfter, label).toBe(pruned.tokensAfter);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('strategies called directly honour their own protectedTokens option and keep calls paired', async () => {
    await fc.assert(
      fc.asyncProperty(
        transcript,
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.constantFrom('summarize' as const, 'two-phase' as const),
        async (messages, own, hook, kind) => {
          const before = structuredClone(messages);
          const model = summarizerModel('working');
          const strategy =
            kind === 'summarize'
              ? summarizeStrategy({ model, protectedTokens: own })
              : twoPhaseStrategy({ model, protectedTokens: own });
          // No countMessage: the strategy derives it from estimateTokens. The threshold is twice the
          // strategy's own protectedTokens, the least at which that value is not capped (at half the threshold).
          const result = await strategy.compact({
            messages,
            estimateTokens: (list) => estimateTokens(list),
            contextWindow: 1,
            protectedTokens: hook,
            thresholdTokens: 2 * own,
          });
          expect(messages).toStrictEqual(before);
          expectCallsPaired(result.messages, kind);
          expectEndsWith(result.messages, messages.slice(tailStart(messages, own)), `${kind}: own protected tail`);
          expectEndsWith(result.messages, messages.slice(unreadStart(messages)), `${kind}: unread part`);
          const summaries = result.messages.filter(isSummaryMessage);
          expect(summaries).toHaveLength(result.summary === undefined ? 0 : 1);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
