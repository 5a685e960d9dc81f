/**
 * Each opt-in layer, and the summary rule, through each path a compaction takes: the hook
 * above its threshold, the hook on the step a summary is rejected, the hook while summaries
 * are paused, the overflow recovery, session.compact() and compactMessages(). Every cell
 * runs twice, with the layer and without it (the control), and checks that the layer's
 * effect is there only with it: a path that skipped the layer fails its cell. The cells the
 * design leaves out say why. The transcripts are built here (several user turns, signed
 * reasoning, ~1,500-token results, ~1,200 tokens of assistant text a turn that no prune frees).
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import { RunState } from '../executor/run-state.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { SessionLog } from '../sessions/session-log.js';
import { MemorySessionStore } from '../sessions/store.js';
import { prose } from '../test-support/text.js';
import { mockModel } from '../testing/mock-model.js';
import { compactMessages } from './compact-messages.js';
import { createCompactionHook } from './compaction-hook.js';
import type { CompactionConfig } from './compaction-options.js';
import { isFoldMarker } from './fold-turns.js';
import { isPrunedMarker } from './marker.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { MemoryPrunedResultStore, recallNote } from './pruned-store.js';
import { summaryMessage } from './summarize.js';
import type { CompactionStrategy } from './types.js';

const WINDOW = 40_000;
const PROTECTED = 2_000;
const MODEL = 'mock-model';
const size = (messages: readonly Message[]) => estimateTokens({ model: MODEL, messages });

/** One user turn: the ask, a reply with signed reasoning and ~1,200 tokens of text that calls read, the result, a short answer. */
function task(k: number): Message[] {
  return [
    { role: 'user', content: `Read src/f${k}.ts.` },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: `I read src/f${k}.ts next.`, signature: `sig-${k}`, provider: 'anthropic' },
        { type: 'text', text: prose(k + 100, 4_800) },
      ],
      toolCalls: [{ id: `r${k}`, name: 'read', arguments: { path: `src/f${k}.ts` } }],
    },
    { role: 'tool', toolCallId: `r${k}`, content: `// src/f${k}.ts\nexport const v${k} = 1;\n${prose(k, 6_000)}` },
    { role: 'assistant', content: `src/f${k}.ts exports v${k}.` },
  ];
}

const transcript = (tasks: number, from = 0): Message[] => [
  { role: 'system', content: 'You read code.' },
  ...Array.from({ length: tasks }, (_, k) => task(from + k)).flat(),
];

/**
 * A strategy that summarizes (it has a fallback, its prune step; `fallback: false` leaves it
 * out), recording the size it is asked for. Without `reject` it prunes; with it, it writes a
 * summary that frees less than pruning would and leaves the request above the threshold.
 */
function spy(options: { reject: boolean; fallback?: boolean }): CompactionStrategy & { asked: number[] } {
  const prune = pruneToolResultsStrategy();
  const asked: number[] = [];
  return {
    name: 'spy-summarizer',
    asked,
    ...(options.fallback === false ? {} : { fallback: prune }),
    compact(input) {
      asked.push(input.thresholdTokens);
      if (!options.reject) return prune.compact(input);
      const text = prose(9, 48_000);
      const messages = [input.messages[0] as Message, summaryMessage(text), ...input.messages.slice(-40)];
      return { messages, tokensBefore: 0, tokensAfter: 0, prunedToolCallIds: [], summary: text };
    },
  };
}

/** What a path produced: the messages after, the toolCallIds whose results it could have changed, and what it reported. */
interface Outcome {
  out: Message[];
  /** The results this path's (last) compaction could touch: all but the newest task's. */
  fresh: Set<string>;
  /** The sizes the strategy was asked to get under. */
  asked: number[];
  dones: CompactionDoneEvent[];
  error?: Error | undefined;
}

type Path = (config: CompactionConfig, strategy: ReturnType<typeof spy>, tasks: number) => Promise<Outcome>;

const idsOf = (messages: readonly Message[]) =>
  new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])).slice(0, -1));

async function hookSteps(config: CompactionConfig, strategy: ReturnType<typeof spy>, tasks: number, steps: 1 | 2) {
  const messages = transcript(tasks);
  const provider = mockModel([]);
  const dones: CompactionDoneEvent[] = [];
  const emit = (e: AgentEvent) => void (e.type === 'compaction.done' && dones.push(e));
  const run = new RunState({ messages, provider, abortSignal: undefined, emit });
  const hook = createCompactionHook({ ...config, strategy, contextWindow: WINDOW, protectedTokens: PROTECTED });
  await hook.preGenerate?.({ request: { model: MODEL, messages }, run, emit });
  let fresh = idsOf(messages);
  if (steps === 2) {
    // More turns, until the request is over the threshold again (the transcript still short of twice its length).
    const before = new Set(idsOf(messages));
    let k = tasks;
    do messages.push(...task(k++));
    while (k < tasks + 2 || size(messages) <= WINDOW * 0.9);
    dones.length = 0;
    await hook.preGenerate?.({ request: { model: MODEL, messages }, run, emit });
    fresh = new Set([...idsOf(messages)].filter((id) => !before.has(id)));
  }
  return { out: messages, fresh, asked: strategy.asked, dones };
}

const PATHS: Record<string, Path> = {
  'the hook': (config, strategy, tasks) => hookSteps(config, strategy, tasks, 1),
  'the hook, summary rejected': (config, strategy, tasks) => hookSteps(config, strategy, tasks, 1),
  'the hook, summaries paused': (config, strategy, tasks) => hookSteps(config, strategy, tasks, 2),
  async 'the overflow recovery'(config, strategy, tasks) {
    const messages = transcript(tasks);
    const provider = mockModel([]);
    const run = new RunState({ messages, provider, abortSignal: undefined, emit: undefined });
    const hook = createCompactionHook({ ...config, strategy, contextWindow: WINDOW, protectedTokens: PROTECTED });
    await hook.recover?.({ request: { model: MODEL, messages }, run, reason: 'preflight', targetTokens: WINDOW * 0.9 });
    return { out: messages, fresh: idsOf(messages), asked: strategy.asked, dones: [] };
  },
  async 'session.compact()'(config, strategy, tasks) {
    const store = new MemorySessionStore();
    const log = new SessionLog(store, 's', () => MODEL);
    await log.append([{ type: 'messages', messages: transcript(tasks) }]);
    const agent = createAgent({ provider: mockModel([]) });
    const session = agent.session({
      id: 's',
      store,
      compaction: { ...config, strategy, contextWindow: WINDOW, protectedTokens: PROTECTED },
    });
    await session.load();
    const result = await session.compact();
    const out = [...session.messages];
    return { out, fresh: idsOf(transcript(tasks)), asked: strategy.asked, dones: [], error: result.error };
  },
  async 'compactMessages()'(config, strategy, tasks) {
    const messages = transcript(tasks);
    const result = await compactMessages(messages, {
      ...config,
      strategy,
      contextWindow: WINDOW,
      protectedTokens: PROTECTED,
      model: MODEL,
    });
    return { out: result.messages, fresh: idsOf(messages), asked: strategy.asked, dones: [], error: result.error };
  },
};

const toolIn = (out: readonly Message[], id: string) =>
  out.find((m): m is Extract<Message, { role: 'tool' }> => m.role === 'tool' && m.toolCallId === id);
const assistantCalling = (out: readonly Message[], id: string) =>
  out.find((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === id));
const freshResults = (o: Outcome) => [...o.fresh].map((id) => contentText(toolIn(o.out, id)?.content ?? ''));

/** A layer: its options, the transcript it needs, and what shows it applied (true with the layer, false in the control). */
interface Layer {
  config: CompactionConfig;
  tasks?: number;
  applied(o: Outcome): boolean;
  /** The paths the design leaves it out of, and why. */
  notOn?: Record<string, string>;
}

const RECALL = new MemoryPrunedResultStore();
const LAYERS: Record<string, Layer> = {
  pruneReasoning: {
    config: { pruneReasoning: true },
    applied: (o) =>
      [...o.fresh].every((id) => {
        const m = assistantCalling(o.out, id);
        return m === undefined || typeof m.content === 'string' || !m.content.some((p) => p.type === 'reasoning');
      }),
  },
  lowWaterMark: {
    config: { lowWaterMark: 0.5 },
    applied: (o) => o.asked.includes(Math.floor(WINDOW * 0.9 * 0.5)),
    notOn: {
      'the hook, summaries paused':
        'while paused only the prune step runs, which takes every old result whatever the target',
      'the overflow recovery': 'the recovery must get under its own target, and folds down to 60% of it itself',
    },
  },
  fold: {
    config: { fold: true },
    applied: (o) => size(o.out) <= Math.floor(WINDOW * 0.9 * 0.5) && o.out.some(isFoldMarker),
    notOn: { 'the overflow recovery': 'the recovery folds on its own, down to 60% of its target' },
  },
  minimumGain: {
    config: { minimumGain: 1 },
    applied: (o) => freshResults(o).every((text) => !isPrunedMarker(text)),
    notOn: { 'the overflow recovery': 'the recovery must get the request to fit, however little that frees' },
  },
  "mode: 'lean'": {
    config: { mode: 'lean' },
    tasks: 40,
    // Lean mode's markers are digests: no call arguments (the seed's stub quotes them).
    applied: (o) => freshResults(o).some((text) => /^\[pruned: read result, \d+ chars; already read/.test(text)),
    notOn: { 'the overflow recovery': 'lean mode prunes between compactions; the recovery only makes the request fit' },
  },
  recall: {
    config: { recall: RECALL },
    applied: (o) => [...o.fresh].some((id) => contentText(toolIn(o.out, id)?.content ?? '').includes(recallNote(id))),
  },
};

describe.each(Object.entries(PATHS))('on %s', (pathName, path) => {
  it.each(Object.entries(LAYERS))('the %s layer applies', async (_name, layer) => {
    const why = layer.notOn?.[pathName];
    if (why !== undefined) {
      console.info(`not applied on ${pathName}, by design: ${why}`);
      return;
    }
    const tasks = layer.tasks ?? 20;
    // The rejected and the paused path need a summary to reject.
    const reject = pathName.includes('summar');
    const on = await path(layer.config, spy({ reject }), tasks);
    const off = await path({}, spy({ reject }), tasks);
    expect(layer.applied(on), 'with the layer').toBe(true);
    expect(layer.applied(off), 'without it (the control)').toBe(false);
  });

  it('the summary rule applies to a strategy that summarizes (one with a fallback), and only to one', async () => {
    if (pathName === 'the overflow recovery') {
      console.info('not applied on the overflow recovery, by design: it writes no summary to judge');
      return;
    }
    const summarized = (o: Outcome) => o.out.some((m) => m.metadata?.summary === true);
    const guarded = await path({}, spy({ reject: true }), 20);
    expect(summarized(guarded)).toBe(false);
    // The same summary from a strategy that does not say it summarizes (no fallback) is applied.
    expect(summarized(await path({}, spy({ reject: true, fallback: false }), 20))).toBe(true);
    if (pathName.startsWith('the hook')) expect(guarded.dones.length).toBeGreaterThan(0);
    if (pathName === 'the hook, summaries paused')
      expect(guarded.dones.map((d) => d.strategy)).toContain('prune-tool-results');
    else if (pathName.startsWith('the hook'))
      expect(guarded.dones[0]?.error?.message).toMatch(/^The summary was rejected/);
    else expect((guarded.error as { code?: string } | undefined)?.code).toBe('LOUSHO_SUMMARY_REJECTED');
  });
});
