import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoushoError } from '../errors/lousho-error.js';
import { isPinned, pinMessage } from '../messages/pin.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
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

const WORDS = [
  'deploy',
  'error',
  'the',
  'config',
  'src/index.ts',
  'user',
  '42',
  'build',
  'cache',
  'ok',
  'null',
  'retry',
];
const TOOL_NAMES = ['search', 'read_file', 'run', 'x', 'http_get'];

const word = fc.constantFrom(...WORDS);
const toolName = fc.constantFrom(...TOOL_NAMES);
/** About one message in six is pinned; shrinking goes towards unpinned. */
const pinned = fc.nat(5).map((n) => n === 5);

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Text under 60 characters: random printable characters or a few words. */
const shortText = fc.oneof(
  fc.string({ maxLength: 59 }),
  fc.array(word, { maxLength: 12 }).map((words) => words.join(' ').slice(0, 59)),
);

const longLength = fc.integer({ min: 200, max: 5_000 });

/** Tool output of 200..5000 characters: prose, JSON lines, a repeated filler character, or random characters. */
const longText = fc.oneof(
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 8 }), longLength)
    .map(([words, length]) => repeatTo(`${words.join(' ')} `, length)),
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), longLength)
    .map(([words, length]) => repeatTo(words.map((w, i) => `{"id":${i},"name":"${w}"}\n`).join(''), length)),
  fc.tuple(fc.constantFrom('-', '=', ' ', '\n', '0'), longLength).map(([char, length]) => char.repeat(length)),
  fc.string({ minLength: 200, maxLength: 600 }),
);

/** Plain objects (fc.record may build null-prototype ones); long paths make markers cut the arguments. */
const toolArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({}),
  shortText.map((query) => ({ query })),
  fc.tuple(fc.string({ minLength: 100, maxLength: 200 }), fc.nat(1_000)).map(([path, limit]) => ({ path, limit })),
);

/** A tool result that already is a marker, of the current form or the older `[pruned: NAME result, N chars]`. */
const markerText = fc.oneof(
  fc.tuple(toolName, toolArguments, fc.nat(20_000)).map(([name, args, chars]) => prunedMarker(name, args, chars)),
  fc.tuple(toolName, fc.nat(20_000)).map(([name, chars]) => `[pruned: ${name} result, ${chars} chars]`),
);

const resultText = fc.oneof(
  { weight: 3, arbitrary: shortText },
  { weight: 3, arbitrary: longText },
  { weight: 1, arbitrary: markerText },
);

interface CallSpec {
  name: string;
  args: unknown;
  result: string;
  pinResult: boolean;
  isError: boolean;
}

type Block =
  | { kind: 'system' | 'user' | 'reply'; text: string; pinned: boolean }
  | { kind: 'tools'; text: string; calls: CallSpec[]; emptyList: boolean; reversed: boolean; pinned: boolean };

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  name: toolName,
  args: toolArguments,
  result: resultText,
  pinResult: pinned,
  isError: fc.nat(9).map((n) => n === 9),
});

const block: fc.Arbitrary<Block> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), text: shortText, pinned }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('user' as const), text: fc.oneof(shortText, longText), pinned }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reply' as const), text: shortText, pinned }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      text: fc.oneof(fc.constant(''), shortText),
      calls: fc.array(callSpec, { maxLength: 3, size: 'max' }),
      emptyList: fc.boolean(),
      reversed: fc.boolean(),
      pinned,
    }),
  },
);

function pinIf<M extends Message>(message: M, pin: boolean): M {
  return pin ? pinMessage(message) : message;
}

function plainMessage(kind: 'system' | 'user' | 'reply', text: string): Message {
  if (kind === 'system') return { role: 'system', content: text };
  if (kind === 'user') return { role: 'user', content: text };
  return { role: 'assistant', content: text };
}

/** Builds a valid transcript: every call gets a unique id and exactly one result right after its assistant message. */
function buildTranscript(system: { text: string; pinned: boolean } | null, blocks: readonly Block[]): Message[] {
  const messages: Message[] = [];
  if (system !== null) messages.push(pinIf({ role: 'system', content: system.text }, system.pinned));
  let nextId = 0;
  for (const b of blocks) {
    if (b.kind !== 'tools') {
      messages.push(pinIf(plainMessage(b.kind, b.text), b.pinned));
    } else {
      const calls = b.calls.map((spec) => ({
        spec,
        call: { id: `call_${nextId++}`, name: spec.name, arguments: spec.args },
      }));
      const assistant: AssistantMessage = { role: 'assistant', content: b.text };
      if (calls.length > 0 || b.emptyList) assistant.toolCalls = calls.map(({ call }) => call);
      messages.push(pinIf(assistant, b.pinned));
      const ordered = b.reversed ? [...calls].reverse() : calls;
      for (const { spec, call } of ordered) {
        const result: ToolMessage = { role: 'tool', toolCallId: call.id, content: spec.result };
        if (spec.isError) result.isError = true;
        messages.push(pinIf(result, spec.pinResult));
      }
    }
  }
  return messages;
}

const transcript: fc.Arbitrary<Message[]> = fc
  .tuple(
    fc.option(fc.record({ text: shortText, pinned }), { nil: null }),
    fc.array(block, { maxLength: 14, size: 'max' }),
  )
  .map(([system, blocks]) => buildTranscript(system, blocks));

interface Scenario {
  messages: Message[];
  protectedTokens: number | undefined;
  contextWindow: number;
  thresholdPercent: number | undefined;
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  messages: transcript,
  protectedTokens: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 500 }) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 3_000 }) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ),
  // Small windows are likelier, so two-phase often has to summarize after pruning.
  contextWindow: fc.oneof(
    fc.integer({ min: 2_000, max: 6_000 }),
    fc.integer({ min: 2_000, max: 20_000 }),
    fc.integer({ min: 2_000, max: 200_000 }),
  ),
  thresholdPercent: fc.option(
    fc.integer({ min: 5, max: 100 }).map((n) => n / 100),
    { nil: undefined },
  ),
});

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
  return Math.min(s.protectedTokens ?? DEFAULT_PROTECTED_TOKENS, cap);
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
