/**
 * The compaction hook driven through real runs: createAgent() and AgentExecutor with a
 * scripted model, tools that return large results and small context windows. Each test
 * states one behaviour of the specification ("Compacting an agent", "Stream events",
 * "Compacting a run", "Local and unknown models").
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent, CompactionStartEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { AgentExecutor } from '../executor/agent-executor.js';
import { HookRegistry } from '../executor/hook-registry.js';
import { partialResult } from '../executor/result.js';
import type { AgentStream } from '../executor/stream-run.js';
import type { Tool } from '../executor/tool.js';
import { ToolRegistry } from '../executor/tool-registry.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { type MockModelOptions, type MockReply, mockModel } from '../testing/mock-model.js';
import { type CompactionHookOptions, type CompactionInfo, createCompactionHook } from './compaction-hook.js';
import { isPrunedMarker } from './marker.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { protectedTailStart } from './sizes.js';
import { SUMMARY_HEADER } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';
import type { CompactionInput, CompactionStrategy } from './types.js';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const WORDS = (
  'alpha beta gamma delta river stone cloud market vector orange silver lantern harbor quiet rapid ' +
  'module buffer parser token window summary engine branch commit review deploy config server client ' +
  'cache thread socket report'
).split(' ');

/** `chars` characters of varied text (about 4.3 characters a token), the same for the same seed. */
function prose(seed: number, chars: number): string {
  let s = (seed * 2654435761) >>> 0;
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const word = `${WORDS[s % WORDS.length]}${(s >>> 8) % 97}`;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, chars);
}

/** A plain-object tool that reads a "file": the n-th call returns `size(n)` characters. */
function readTool(size: number | ((call: number) => number) = 4_300): Tool<never, unknown> {
  let call = 0;
  return {
    name: 'read',
    description: 'Read a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute(args: { path: string }) {
      const n = typeof size === 'number' ? size : size(call);
      call++;
      return `// ${args.path}\n${prose(call * 7_919 + args.path.length, n)}`;
    },
  };
}

/** A tool whose result is shorter than any marker, so it can never be pruned. */
const noteTool: Tool<never, unknown> = {
  name: 'note',
  description: 'Write a note.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute: () => 'ok',
};

interface Received {
  tokens: number;
  messages: Message[];
}

/** A scripted model that records a copy of every request it received (and its estimated size). */
function recordingModel(
  reply: (request: ModelRequest, index: number) => string | MockReply | Error,
  options: MockModelOptions = {},
) {
  const received: Received[] = [];
  const model = mockModel((request, index) => {
    received.push({ tokens: estimateTokens(request), messages: [...request.messages] });
    return reply(request, index);
  }, options);
  return { model, received };
}

/**
 * The reply of a model that reads `reads` files, one a step (call ids r0, r1, ...), then
 * answers 'done'. Counted per run (a run's requests all carry the run's transcript array).
 */
function readsThenDone(reads: number) {
  const stepOf = new WeakMap<Message[], number>();
  return (request: ModelRequest): string | MockReply => {
    const i = stepOf.get(request.messages) ?? 0;
    stepOf.set(request.messages, i + 1);
    if (i >= reads) return 'done';
    return {
      text: `Reading file ${i}.`,
      toolCalls: [{ id: `r${i}`, name: 'read', arguments: { path: `src/f${i}.ts` } }],
    };
  };
}

interface Probed {
  step: number;
  tokens: number;
  messages: Message[];
  hasEmit: boolean;
}

/** A hook that records what the request looked like when it ran (before the compaction hook). */
function probe(name = 'probe'): { hook: AgentHook; seen: Probed[] } {
  const seen: Probed[] = [];
  return {
    seen,
    hook: {
      name,
      preGenerate({ request, run, emit }) {
        seen.push({
          step: run.step,
          tokens: estimateTokens(request),
          messages: [...request.messages],
          hasEmit: emit !== undefined,
        });
      },
    },
  };
}

/** Wraps a strategy to record what it received. */
function recordingStrategy(inner: CompactionStrategy = pruneToolResultsStrategy()) {
  const inputs: CompactionInput[] = [];
  const strategy: CompactionStrategy = {
    name: inner.name,
    compact(input) {
      inputs.push(input);
      return inner.compact(input);
    },
  };
  return { strategy, inputs };
}

type CompactionEvent = CompactionStartEvent | CompactionDoneEvent;

function isCompaction(event: AgentEvent): event is CompactionEvent {
  return event.type === 'compaction.start' || event.type === 'compaction.done';
}

function startsOf(events: readonly AgentEvent[]): CompactionStartEvent[] {
  return events.filter((e): e is CompactionStartEvent => e.type === 'compaction.start');
}

function donesOf(events: readonly AgentEvent[]): CompactionDoneEvent[] {
  return events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
}

/** The step an event belongs to: the latest step.start before it. */
function stepAt(events: readonly AgentEvent[], index: number): number {
  for (let i = index; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'step.start') return e.step;
  }
  return 0;
}

/** The compaction events of a run with the step each happened in. */
function compactionSteps(events: readonly AgentEvent[]): { step: number; event: CompactionEvent }[] {
  const out: { step: number; event: CompactionEvent }[] = [];
  events.forEach((event, i) => {
    if (isCompaction(event)) out.push({ step: stepAt(events, i), event });
  });
  return out;
}

async function collect(stream: AgentStream): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

function toolResult(messages: readonly Message[], id: string): ToolMessage | undefined {
  return messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === id);
}

function isMarkerMessage(message: Message): boolean {
  return message.role === 'tool' && typeof message.content === 'string' && isPrunedMarker(message.content);
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The "folding" run used by the summary tests, with a threshold of 3,600 tokens (45% of an
 * 8,000-token window, so that no request of the run is ever above the window itself):
 * a task statement of ~2,200 tokens that only a summary can shrink, a first small file
 * (~300 tokens) and then large files (~1,800 tokens) one a step. Steps 1 and 2 are under
 * the threshold; from step 3 on the request is over it even after pruning, so a
 * two-phase strategy calls its summarizer; a short summary gets it well under.
 */
const FOLD_WINDOW = 8_000;
const FOLD_PERCENT = 0.45;
const FOLD_THRESHOLD = 3_600;
const FOLD_TASK = `Task: review these notes and the files.\n${prose(1, 9_500)}`;

function foldingAgent(options: {
  reads: number;
  strategy?: CompactionStrategy;
  summarizer?: LLMProvider;
  onCompaction?: (info: CompactionInfo) => void;
  limits?: { maxSteps?: number; maxTokens?: number };
}) {
  const main = recordingModel(readsThenDone(options.reads));
  const strategy =
    options.strategy ??
    (options.summarizer === undefined ? undefined : twoPhaseStrategy({ model: options.summarizer }));
  const hook: CompactionHookOptions = {
    contextWindow: FOLD_WINDOW,
    thresholdPercent: FOLD_PERCENT,
    protectedTokens: 100,
    ...(strategy === undefined ? {} : { strategy }),
    ...(options.onCompaction === undefined ? {} : { onCompaction: options.onCompaction }),
  };
  const agent = createAgent({
    provider: main.model,
    instructions: 'You are a careful reviewer.',
    tools: [readTool((call) => (call === 0 ? 1_300 : 7_700))],
    hooks: [createCompactionHook(hook)],
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return { agent, main };
}

let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  warn.mockRestore();
  resetModelRegistry();
});

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

describe('createCompactionHook() in a run', () => {
  it('measures the request as its messages, tool definitions and output schema together', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string', description: prose(2, 1_200) } },
      required: ['answer'],
    };
    const search: Tool<never, unknown> = {
      name: 'search',
      description: prose(3, 1_200),
      parameters: { type: 'object', properties: { query: { type: 'string', description: prose(4, 300) } } },
      execute: () => 'nothing',
    };
    const seen = probe();
    const { model } = recordingModel(() => '{"answer":"ok"}');
    const agent = createAgent({
      provider: model,
      instructions: 'Answer briefly.',
      tools: [search],
      outputSchema: schema,
      hooks: [seen.hook, createCompactionHook({ contextWindow: 1_000, thresholdPercent: 0.5 })],
    });
    const { events } = await collect(agent.stream('What is in the repository?'));
    const [start] = startsOf(events);
    const [saw] = seen.seen;
    if (start === undefined || saw === undefined) throw new Error('expected a compaction at step 1');
    const request = model.calls[0];
    if (request === undefined) throw new Error('the model was not called');
    const full = estimateTokens({
      model: request.model,
      messages: saw.messages,
      ...(request.tools === undefined ? {} : { tools: request.tools }),
      ...(request.outputSchema === undefined ? {} : { outputSchema: request.outputSchema }),
    });
    expect(request.tools?.length).toBe(1);
    // The schema as sent: closed (additionalProperties: false), which strict output needs.
    expect(request.outputSchema).toEqual({ ...schema, additionalProperties: false });
    expect(start.tokensBefore).toBe(full);
    // The messages alone are under the 500-token threshold: the tools and the schema made it compact.
    expect(estimateTokens({ model: request.model, messages: saw.messages })).toBeLessThan(start.thresholdTokens);
    expect(estimateTokens({ model: request.model, messages: saw.messages, tools: request.tools ?? [] })).toBeLessThan(
      full,
    );
    expect(start.thresholdTokens).toBe(500);
  });

  it("adds what the provider's reported prompt tokens exceeded the estimate by to the run's next estimate, never lowering it and never across runs", async () => {
    // The model reads one large file (the step-2 request is ~4,000 tokens, over the 3,600 threshold), then
    // answers. The 12,000-token window leaves headroom: no request of these runs is above the window.
    const agentReporting = (delta: number) => {
      const seen = probe();
      const model = mockModel((request) => {
        const last = request.messages[request.messages.length - 1];
        const usage = { inputTokens: estimateTokens(request) + delta };
        if (last?.role === 'user') return { toolCalls: [{ name: 'read', arguments: { path: 'big.ts' } }], usage };
        return { text: 'done', usage };
      });
      const agent = createAgent({
        provider: model,
        tools: [readTool(17_000)],
        hooks: [seen.hook, createCompactionHook({ contextWindow: 12_000, thresholdPercent: 0.3 })],
      });
      return { agent, seen };
    };
    const step2Start = (events: AgentEvent[]) => {
      const found = compactionSteps(events).find((c) => c.step === 2 && c.event.type === 'compaction.start');
      if (found === undefined) throw new Error('expected a compaction at step 2');
      return found.event as CompactionStartEvent;
    };

    const over = agentReporting(250);
    const first = await collect(over.agent.stream('Read big.ts.'));
    const estimate2 = over.seen.seen.find((s) => s.step === 2)?.tokens;
    expect(step2Start(first.events).tokensBefore).toBe((estimate2 ?? 0) + 250);

    const under = agentReporting(-40);
    const lower = await collect(under.agent.stream('Read big.ts.'));
    expect(step2Start(lower.events).tokensBefore).toBe(under.seen.seen.find((s) => s.step === 2)?.tokens);

    // A second run on the same hook starts without the first run's calibration.
    over.seen.seen.length = 0;
    const second = await collect(over.agent.stream(`Summarize this: ${prose(5, 17_000)}`));
    const start1 = compactionSteps(second.events).find((c) => c.step === 1)?.event;
    expect(start1?.type).toBe('compaction.start');
    expect(start1?.tokensBefore).toBe(over.seen.seen[0]?.tokens);
  });

  it('lowers the threshold to contextWindow - reserveOutputTokens and never raises it', async () => {
    const input = `Review this: ${prose(6, 8_000)}`;
    const size = estimateTokens({ model: 'mock-model', messages: [{ role: 'user', content: input }] });
    const window = size + 100;
    const run = async (options: CompactionHookOptions) => {
      const agent = createAgent({
        provider: mockModel(() => 'ok'),
        hooks: [createCompactionHook({ contextWindow: window, ...options })],
      });
      return startsOf((await collect(agent.stream(input))).events);
    };
    // thresholdPercent 1: the threshold is the whole window, which the request fits in.
    expect(await run({ thresholdPercent: 1 })).toEqual([]);
    // A reserve of 200 lowers it under the request.
    const reserved = await run({ thresholdPercent: 1, reserveOutputTokens: 200 });
    expect(reserved.map((s) => [s.thresholdTokens, s.tokensBefore, s.contextWindow])).toEqual([
      [window - 200, size, window],
    ]);
    // A reserve of 50 lowers it too, but the request still fits.
    expect(await run({ thresholdPercent: 1, reserveOutputTokens: 50 })).toEqual([]);
    // A reserve smaller than what the share leaves free does not raise the share's threshold.
    const share = await run({ thresholdPercent: 0.5, reserveOutputTokens: 10 });
    expect(share.map((s) => s.thresholdTokens)).toEqual([Math.floor(window * 0.5)]);
  });

  describe('protectedTokens', () => {
    it('defaults to 40,000 capped at half the threshold, so about 3,686 tokens of an 8K window stay intact', async () => {
      const seen = probe();
      const { strategy, inputs } = recordingStrategy();
      const main = recordingModel(readsThenDone(14));
      const agent = createAgent({
        provider: main.model,
        tools: [readTool(4_300)],
        hooks: [seen.hook, createCompactionHook({ contextWindow: 8_192, strategy })],
      });
      const { events, result } = await collect(agent.stream('Review the repository.'));
      expect(result.text).toBe('done');
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) {
        expect(input.thresholdTokens).toBe(7_372);
        expect(input.protectedTokens).toBe(3_686);
      }
      const changedSteps = compactionSteps(events)
        .filter((c) => c.event.type === 'compaction.done' && c.event.unchanged !== true)
        .map((c) => c.step);
      expect(changedSteps.length).toBeGreaterThan(0);
      for (const step of changedSteps) {
        const before = seen.seen.find((s) => s.step === step)?.messages ?? [];
        const after = main.received[step - 1]?.messages ?? [];
        const tail = protectedTailStart(before, 3_686, (m) => messageTokens(m));
        // The newest ~3,686 tokens are the same message objects...
        expect(after.slice(tail)).toEqual(before.slice(tail));
        after.slice(tail).forEach((m, i) => {
          expect(m).toBe(before[tail + i]);
        });
        const tailTokens = sum(before.slice(tail).map((m) => messageTokens(m)));
        expect(tailTokens).toBeLessThanOrEqual(3_686);
        expect(tailTokens).toBeGreaterThan(3_686 - 1_100);
        // ...and every older tool result is pruned.
        for (const m of after.slice(0, tail)) if (m.role === 'tool') expect(isMarkerMessage(m)).toBe(true);
      }
      expect(warn).not.toHaveBeenCalled();
    });

    it.each([
      ['far above', 50_000],
      ['equal to', 7_372],
    ])(
      'caps a value %s the threshold at half of it with exactly one console.warn however many steps',
      async (_, value) => {
        const { strategy, inputs } = recordingStrategy();
        const agent = createAgent({
          provider: mockModel(readsThenDone(20)),
          tools: [readTool(4_300)],
          hooks: [createCompactionHook({ contextWindow: 8_192, protectedTokens: value, strategy })],
        });
        const { events, result } = await collect(agent.stream('Review the repository.'));
        expect(result.text).toBe('done');
        expect(inputs.length).toBeGreaterThan(3);
        for (const input of inputs) expect(input.protectedTokens).toBe(3_686);
        // Capped, it still prunes.
        expect(donesOf(events).some((d) => d.prunedToolCallIds.length > 0)).toBe(true);
        expect(result.messages.some(isMarkerMessage)).toBe(true);
        // (The hook may also say once that it folded turns: that is another warning.)
        const capWarnings = () => warn.mock.calls.filter(([m]) => String(m).includes('protectedTokens'));
        expect(capWarnings()).toHaveLength(1);
        // A second run of the same hook does not warn again.
        await agent.send('Review it again.');
        expect(capWarnings()).toHaveLength(1);
      },
    );

    it('keeps a value between half the threshold and the threshold as it is, without a warning', async () => {
      const { strategy, inputs } = recordingStrategy();
      const agent = createAgent({
        provider: mockModel(readsThenDone(14)),
        tools: [readTool(4_300)],
        hooks: [createCompactionHook({ contextWindow: 8_192, protectedTokens: 5_000, strategy })],
      });
      await agent.send('Review the repository.');
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(input.protectedTokens).toBe(5_000);
      expect(warn).not.toHaveBeenCalled();
    });

    it('caps a value at or above the threshold at half of it, with one warning', async () => {
      const { strategy, inputs } = recordingStrategy();
      const agent = createAgent({
        provider: mockModel(readsThenDone(14)),
        tools: [readTool(4_300)],
        hooks: [createCompactionHook({ contextWindow: 8_192, protectedTokens: 7_372, strategy })],
      });
      await agent.send('Review the repository.');
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(input.protectedTokens).toBe(3_686);
      expect(warn).toHaveBeenCalledTimes(1);
    });

    it('keeps a value up to half the threshold as it is, without a warning', async () => {
      const { strategy, inputs } = recordingStrategy();
      const agent = createAgent({
        provider: mockModel(readsThenDone(14)),
        tools: [readTool(4_300)],
        hooks: [createCompactionHook({ contextWindow: 8_192, protectedTokens: 3_000, strategy })],
      });
      await agent.send('Review the repository.');
      expect(inputs.length).toBeGreaterThan(0);
      for (const input of inputs) expect(input.protectedTokens).toBe(3_000);
      expect(warn).not.toHaveBeenCalled();
    });
  });

  describe('the context window of an unknown model', () => {
    const local = { modelId: 'acme-local-7b', provider: 'mock' };

    it('is 128,000 with one console.warn naming the model, however many steps and runs', async () => {
      const agent = createAgent({
        provider: mockModel(readsThenDone(8), local),
        tools: [readTool(4_300)],
        compaction: { thresholdPercent: 0.02 },
      });
      const { events } = await collect(agent.stream('Review the repository.'));
      const starts = startsOf(events);
      expect(starts.length).toBeGreaterThan(1);
      for (const start of starts) {
        expect(start.contextWindow).toBe(128_000);
        expect(start.thresholdTokens).toBe(2_560);
      }
      const windowWarnings = () => warn.mock.calls.filter(([m]) => String(m).includes('context window'));
      expect(windowWarnings()).toHaveLength(1);
      expect(String(windowWarnings()[0]?.[0])).toContain('acme-local-7b');
      await agent.send('Review it again.');
      expect(windowWarnings()).toHaveLength(1);
    });

    it('is the registered window after registerModel(), without a warning', async () => {
      registerModel({ id: 'acme-local-7b', provider: 'mock', contextWindow: 8_192 });
      const agent = createAgent({
        provider: mockModel(readsThenDone(10), local),
        tools: [readTool(4_300)],
        compaction: true,
      });
      const { events } = await collect(agent.stream('Review the repository.'));
      const starts = startsOf(events);
      expect(starts.length).toBeGreaterThan(0);
      for (const start of starts) expect([start.contextWindow, start.thresholdTokens]).toEqual([8_192, 7_372]);
      expect(warn).not.toHaveBeenCalled();
    });

    it('is the contextWindow option when it is set, without a warning', async () => {
      const agent = createAgent({
        provider: mockModel(readsThenDone(10), local),
        tools: [readTool(4_300)],
        compaction: { contextWindow: 6_000 },
      });
      const { events } = await collect(agent.stream('Review the repository.'));
      const starts = startsOf(events);
      expect(starts.length).toBeGreaterThan(0);
      for (const start of starts) expect([start.contextWindow, start.thresholdTokens]).toEqual([6_000, 5_400]);
      expect(warn).not.toHaveBeenCalled();
    });
  });

  it("rewrites the run's own transcript: pruned results stay pruned in later steps and in result.messages, and are not compacted again", async () => {
    const main = recordingModel(readsThenDone(14));
    const arrays: Message[][] = [];
    const agent = createAgent({
      provider: main.model,
      tools: [readTool(4_300)],
      hooks: [
        { name: 'arrays', preGenerate: ({ request }) => void arrays.push(request.messages) },
        createCompactionHook({ contextWindow: 6_000 }),
      ],
    });
    const { events, result } = await collect(agent.stream('Review the repository.'));
    // Not a copy: every step's request carried the run's transcript itself, which the run returns.
    expect(arrays).toHaveLength(15);
    for (const array of arrays) expect(array).toBe(result.messages);

    const pruned = donesOf(events).flatMap((d) => d.prunedToolCallIds);
    expect(pruned.length).toBeGreaterThan(3);
    expect(new Set(pruned).size).toBe(pruned.length); // none pruned twice
    for (const id of pruned) {
      const final = toolResult(result.messages, id);
      if (final === undefined) {
        // Folded later (pruning had nothing left to take): the call went with its result, into one marker turn.
        expect(result.messages.some((m) => m.role === 'assistant' && m.toolCalls?.some((c) => c.id === id))).toBe(
          false,
        );
        continue;
      }
      expect(isMarkerMessage(final)).toBe(true);
      // From the first request that had it pruned, every later request has the same marker.
      const first = main.received.findIndex((r) => {
        const m = toolResult(r.messages, id);
        return m !== undefined && isMarkerMessage(m);
      });
      expect(first).toBeGreaterThan(0);
      for (const later of main.received.slice(first)) {
        expect(toolResult(later.messages, id)?.content).toBe(final?.content);
      }
    }
    // Every call still has its result.
    const calls = result.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => toolResult(result.messages, c.id)?.toolCallId)).toEqual(calls.map((c) => c.id));
  });

  it('reports one compaction.done per compaction.start, inside the step and before its model call, which receives the compacted request', async () => {
    const main = recordingModel(readsThenDone(14));
    const agent = createAgent({
      provider: main.model,
      tools: [readTool(4_300)],
      compaction: { contextWindow: 6_000 },
    });
    const { events } = await collect(agent.stream('Review the repository.'));
    const compactions = compactionSteps(events);
    expect(compactions.length).toBeGreaterThan(4);
    // start, done, start, done, ... with nothing in between a start and its done.
    events.forEach((event, i) => {
      if (event.type === 'compaction.start') expect(events[i + 1]?.type).toBe('compaction.done');
      if (event.type === 'compaction.done') expect(events[i - 1]?.type).toBe('compaction.start');
    });
    for (let i = 0; i < events.length; i++) {
      const done = events[i];
      if (done?.type !== 'compaction.done') continue;
      const step = stepAt(events, i);
      expect(step).toBeGreaterThan(0);
      // Before that step's text and step.done: before its model call.
      const firstDelta = events.findIndex((e) => e.type === 'text.delta' && e.step === step);
      const stepDone = events.findIndex((e) => e.type === 'step.done' && e.step === step);
      expect(firstDelta).toBeGreaterThan(i);
      expect(stepDone).toBeGreaterThan(i);
      // The model received the compacted request.
      const received = main.received[step - 1];
      expect(received?.tokens).toBe(done.tokensAfter);
      expect(estimateTokens(main.model.calls[step - 1] ?? { messages: [] })).toBe(done.tokensAfter);
      for (const id of done.prunedToolCallIds) {
        const m = toolResult(received?.messages ?? [], id);
        expect(m !== undefined && isMarkerMessage(m)).toBe(true);
      }
    }
  });

  it('reports unchanged: true when nothing can shrink, then stays quiet until an attempt changes something', async () => {
    // Step 1: the task alone is over the threshold and nothing can shrink. Steps 2-4 still
    // change nothing (tiny results; the large one is the latest turn's). Step 5 prunes it.
    const plan: MockReply[] = [
      { toolCalls: [{ id: 'n1', name: 'note', arguments: { text: 'a' } }] },
      { toolCalls: [{ id: 'n2', name: 'note', arguments: { text: 'b' } }] },
      { toolCalls: [{ id: 'big', name: 'read', arguments: { path: 'big.ts' } }] },
      { toolCalls: [{ id: 'n3', name: 'note', arguments: { text: 'c' } }] },
      { text: 'done' },
    ];
    const onCompaction = vi.fn();
    const agent = createAgent({
      provider: mockModel(plan),
      tools: [noteTool, readTool(8_000)],
      hooks: [createCompactionHook({ contextWindow: 9_000, thresholdPercent: 0.3, protectedTokens: 0, onCompaction })],
    });
    const { events, result } = await collect(agent.stream(`Review: ${prose(7, 13_000)}`));
    expect(result.text).toBe('done');
    const compactions = compactionSteps(events);
    expect(compactions.map((c) => `${c.step}:${c.event.type}`)).toEqual([
      '1:compaction.start',
      '1:compaction.done',
      '5:compaction.start',
      '5:compaction.done',
    ]);
    const [first, second] = donesOf(events);
    expect(first?.unchanged).toBe(true);
    expect(first?.tokensAfter).toBe(first?.tokensBefore);
    expect(first?.prunedToolCallIds).toEqual([]);
    expect(second?.unchanged).toBeUndefined();
    expect(second?.prunedToolCallIds).toEqual(['big']);
    expect(second?.tokensAfter).toBeLessThan(second?.tokensBefore ?? 0);
    expect(onCompaction).toHaveBeenCalledTimes(1);
  });

  describe('a rejected summary', () => {
    it('that leaves the request larger keeps the pruned result, and summaries pause until the transcript has doubled', async () => {
      const summaryCalls: number[] = [];
      let mainReceived: Received[] = [];
      const summarizer = mockModel((_request, index) => {
        summaryCalls.push(mainReceived.length + 1); // the step it runs in, before that step's model call
        return index === 0 ? prose(8, 26_000) : 'Files 0-3 were read; nothing notable.';
      });
      const { agent, main } = foldingAgent({ reads: 5, summarizer });
      mainReceived = main.received;
      const { events, result } = await collect(agent.stream(FOLD_TASK));
      expect(result.text).toBe('done');
      const byStep = compactionSteps(events);
      expect(byStep.map((c) => `${c.step}:${c.event.type}:${c.event.strategy}`)).toEqual([
        '3:compaction.start:two-phase',
        '3:compaction.done:two-phase',
        '4:compaction.start:prune-tool-results',
        '4:compaction.done:prune-tool-results',
        '5:compaction.start:prune-tool-results',
        '5:compaction.done:prune-tool-results',
        '6:compaction.start:two-phase',
        '6:compaction.done:two-phase',
      ]);
      const [rejected, paused1, paused2, retried] = donesOf(events);
      // Step 3: 6 messages; the summary made it larger, so it is rejected and the pruned result kept.
      expect(rejected?.error?.message).toMatch(/rejected.*larger/);
      expect(rejected?.appliedStrategy).toBe('prune-tool-results');
      expect(rejected?.summary).toBeUndefined();
      expect(rejected?.prunedToolCallIds).toEqual(['r0']);
      expect(rejected?.tokensAfter).toBeLessThan(rejected?.tokensBefore ?? 0);
      expect(main.received[2]?.messages.map((m) => contentText(m.content).startsWith(SUMMARY_HEADER))).not.toContain(
        true,
      );
      expect(isMarkerMessage(toolResult(main.received[2]?.messages ?? [], 'r0') as Message)).toBe(true);
      // Steps 4 and 5 (8 and 10 messages, fewer than 12): pruning only, still over the threshold.
      expect(paused1?.prunedToolCallIds).toEqual(['r1']);
      expect(paused2?.prunedToolCallIds).toEqual(['r2']);
      expect(paused1?.tokensAfter).toBeGreaterThan(FOLD_THRESHOLD);
      expect(paused2?.tokensAfter).toBeGreaterThan(FOLD_THRESHOLD);
      // Step 6 (12 messages): the summarizer is tried again, and this time it helps.
      expect(summaryCalls).toEqual([3, 6]);
      expect(retried?.summary).toBe(true);
      expect(retried?.error).toBeUndefined();
      expect(retried?.tokensAfter).toBeLessThanOrEqual(FOLD_THRESHOLD);
      expect(result.messages.some((m) => contentText(m.content).startsWith(SUMMARY_HEADER))).toBe(true);
    });

    it("keeps the two-phase strategy's own pruned result, with its own protectedTokens", async () => {
      // The strategy asks for the newest 1,800 tokens (the hook only 100), below the threshold
      // (3,600), so it is used as it is: the first file (r0) falls outside and is pruned.
      const summarizer = mockModel(() => prose(14, 26_000));
      const strategy = twoPhaseStrategy({ model: summarizer, protectedTokens: 1_800 });
      const { agent, main } = foldingAgent({ reads: 2, strategy });
      const { events, result } = await collect(agent.stream(FOLD_TASK));
      expect(result.text).toBe('done');
      const [rejected] = donesOf(events);
      expect(summarizer.calls).toHaveLength(1);
      expect(rejected?.error?.message).toMatch(/rejected/);
      expect(rejected?.appliedStrategy).toBe('prune-tool-results');
      const r0 = toolResult(main.received[2]?.messages ?? [], 'r0');
      expect(r0 !== undefined && isMarkerMessage(r0)).toBe(true);
      expect(rejected?.prunedToolCallIds).toEqual(['r0']);
      // The newest 1,800 tokens (A2 and r1's result) are kept as they are.
      const r1 = toolResult(main.received[2]?.messages ?? [], 'r1');
      expect(r1 !== undefined && isMarkerMessage(r1)).toBe(false);
    });

    it('that does not get the request under the threshold is rejected the same way', async () => {
      const summarizer = mockModel((_request, index) => (index === 0 ? prose(9, 8_600) : 'Short summary.'));
      const { agent, main } = foldingAgent({ reads: 3, summarizer });
      const { events, result } = await collect(agent.stream(FOLD_TASK));
      expect(result.text).toBe('done');
      const [rejected] = donesOf(events);
      expect(rejected?.error?.message).toMatch(/rejected.*above the threshold/);
      expect(rejected?.tokensAfter).toBeLessThan(rejected?.tokensBefore ?? 0);
      expect(rejected?.tokensAfter).toBeGreaterThan(FOLD_THRESHOLD);
      expect(rejected?.appliedStrategy).toBe('prune-tool-results');
      expect(rejected?.summary).toBeUndefined();
      expect(rejected?.prunedToolCallIds).toEqual(['r0']);
      // The task statement is still there as it was: the summary was not applied.
      expect(main.received[2]?.messages[1]?.content).toBe(FOLD_TASK);
      expect(summarizer.calls).toHaveLength(1);
    });
  });

  it('calls onCompaction only when something changed or an error was reported, with the tokens, pruned ids, strategy, summary text and error', async () => {
    // Nothing can shrink: a done event, but no onCompaction.
    const quiet = vi.fn();
    const still = createAgent({
      provider: mockModel(['ok']),
      hooks: [createCompactionHook({ contextWindow: 4_000, thresholdPercent: 0.225, onCompaction: quiet })],
    });
    const stillRun = await collect(still.stream(`Review: ${prose(10, 6_000)}`));
    expect(donesOf(stillRun.events).map((d) => d.unchanged)).toEqual([true]);
    expect(quiet).not.toHaveBeenCalled();

    // A summarizer that fails once, then works: after the failure, summaries pause until the
    // transcript has doubled (6 -> 12 messages, steps 4 and 5 only prune), then it is tried again.
    const infos: CompactionInfo[] = [];
    const summarizer = mockModel([new Error('summarizer unavailable'), 'Brief summary of the task and files 0-1.']);
    const { agent } = foldingAgent({ reads: 5, summarizer, onCompaction: (info) => infos.push(info) });
    const { events } = await collect(agent.stream(FOLD_TASK));
    const dones = donesOf(events);
    expect(dones).toHaveLength(4);
    expect(infos).toHaveLength(4);
    const [failed, paused1, paused2, summarized] = infos;
    expect(summarizer.calls).toHaveLength(2);
    for (const [paused, id] of [
      [paused1, 'r1'],
      [paused2, 'r2'],
    ] as const) {
      expect(paused?.strategy).toBe('prune-tool-results');
      expect(paused?.prunedToolCallIds).toEqual([id]);
      expect(paused?.error).toBeUndefined();
    }
    expect(failed).toMatchObject({
      strategy: 'two-phase',
      appliedStrategy: 'prune-tool-results',
      prunedToolCallIds: ['r0'],
      tokensBefore: dones[0]?.tokensBefore,
      tokensAfter: dones[0]?.tokensAfter,
      contextWindow: FOLD_WINDOW,
      thresholdTokens: FOLD_THRESHOLD,
    });
    // A typed error with a code, the summarizer's own error kept as its cause.
    expect(failed?.error?.code).toBe('LOUSHO_STRATEGY_FAILED');
    expect(failed?.error?.message).toContain('summarizer unavailable');
    expect((failed?.error?.cause as Error | undefined)?.message).toBe('summarizer unavailable');
    expect(failed?.summary).toBeUndefined();
    expect(dones[0]?.error).toEqual({ message: failed?.error?.message });

    expect(summarized).toMatchObject({
      strategy: 'two-phase',
      appliedStrategy: 'summarize',
      prunedToolCallIds: ['r3'],
      summary: 'Brief summary of the task and files 0-1.',
      tokensBefore: dones[3]?.tokensBefore,
      tokensAfter: dones[3]?.tokensAfter,
    });
    expect(summarized?.error).toBeUndefined();
    expect(dones[3]?.summary).toBe(true);
    // The event carries no summary text.
    expect(JSON.stringify(dones[3])).not.toContain('Brief summary');
  });

  describe('never fails a run', () => {
    const garbage: [string, CompactionStrategy, RegExp][] = [
      [
        'a strategy that throws',
        {
          name: 'throws',
          compact() {
            throw new Error('strategy exploded');
          },
        },
        /strategy exploded/,
      ],
      [
        'an async strategy that rejects',
        { name: 'rejects', compact: async () => Promise.reject(new Error('async failure')) },
        /async failure/,
      ],
      [
        'a strategy that returns null',
        { name: 'null', compact: () => null as unknown as ReturnType<CompactionStrategy['compact']> },
        /no messages array/,
      ],
      [
        'a strategy that returns no messages array',
        {
          name: 'no-array',
          compact: () => ({ messages: 'nope' }) as unknown as ReturnType<CompactionStrategy['compact']>,
        },
        /no messages array/,
      ],
      [
        'a strategy that returns malformed messages',
        {
          name: 'malformed',
          compact: () =>
            ({
              messages: [{ role: 'wizard', content: 1 }],
              tokensBefore: 0,
              tokensAfter: 0,
              prunedToolCallIds: [],
            }) as unknown as ReturnType<CompactionStrategy['compact']>,
        },
        /messages\[0\]/,
      ],
      [
        'a summarizer that throws',
        twoPhaseStrategy({ model: mockModel([new Error('summarizer 503')]) }),
        /summarizer 503/,
      ],
    ];

    it.each(garbage)('%s: the run completes and compaction.done carries the error', async (_, strategy, message) => {
      const onCompaction = vi.fn();
      const agent = createAgent({
        provider: mockModel(readsThenDone(2)),
        tools: [readTool(4_300)],
        hooks: [
          createCompactionHook({
            contextWindow: 8_000,
            thresholdPercent: 0.225,
            protectedTokens: 0,
            strategy,
            onCompaction,
          }),
        ],
      });
      const task = `Review: ${prose(11, 9_000)}`;
      const { events, result } = await collect(agent.stream(task));
      expect(result.text).toBe('done');
      expect(result.finishReason).toBe('stop');
      const dones = donesOf(events);
      expect(dones.length).toBeGreaterThan(0);
      expect(dones.length).toBe(startsOf(events).length);
      const failed = dones.find((d) => d.error !== undefined);
      expect(failed?.error?.message).toMatch(message);
      expect(failed?.strategy).toBe(strategy.name);
      expect(onCompaction.mock.calls[0]?.[0]?.error?.message).toMatch(message);
      expect(result.messages[0]?.content).toBe(task);
      expect(events.some((e) => e.type === 'run.error')).toBe(false);
    });
  });

  describe("the summarizer's model call", () => {
    it("is counted in the run's usage under the summarizer's model, with purpose 'compaction'", async () => {
      const summarizer = mockModel(['Summary of the task and the first file.'], {
        modelId: 'cheap-summarizer',
        provider: 'mock',
      });
      const { agent } = foldingAgent({ reads: 3, summarizer });
      const result = await agent.send(FOLD_TASK);
      expect(result.text).toBe('done');
      expect(summarizer.calls).toHaveLength(1);
      const cheap = result.usage.byModel['cheap-summarizer'];
      expect(cheap?.calls).toBe(1);
      expect(cheap?.inputTokens).toBe(estimateTokens(summarizer.calls[0] ?? { messages: [] }));
      const compaction = result.usage.modelCalls.filter((c) => c.purpose === 'compaction');
      expect(compaction).toEqual([
        expect.objectContaining({ model: 'cheap-summarizer', purpose: 'compaction', step: 3 }),
      ]);
      expect(result.usage.modelCalls).toHaveLength(5);
      expect(result.steps).toBe(4);
      expect(result.usage.inputTokens).toBe(sum(Object.values(result.usage.byModel).map((m) => m.inputTokens)));
      expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    });

    it("does not count toward maxSteps, which counts what result.steps counts: the agent's own steps", async () => {
      const summarizer = mockModel(['Summary of the task and the first file.'], { modelId: 'cheap-summarizer' });
      const { agent, main } = foldingAgent({ reads: 2, summarizer, limits: { maxSteps: 3 } });
      const result = await agent.send(FOLD_TASK);
      expect(result.text).toBe('done');
      expect(result.steps).toBe(3);
      expect(summarizer.calls).toHaveLength(1);
      expect(main.model.calls).toHaveLength(3);
      expect(result.usage.modelCalls.map((c) => c.purpose)).toEqual(['generate', 'generate', 'compaction', 'generate']);
      // One step fewer is a limit reached before the third step's model call, with the summary in the partial result.
      const tight = foldingAgent({ reads: 2, summarizer: mockModel(['Summary.']), limits: { maxSteps: 2 } });
      const error = await tight.agent.send(FOLD_TASK).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(LoushoError.isInstance(error) && error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
      expect(LoushoError.isInstance(error) && error.details).toMatchObject({ limit: 'maxSteps', value: 2, max: 2 });
      expect(partialResult(error)?.steps).toBe(2);
    });

    it('counts toward maxTokens', async () => {
      const summarizer = mockModel([{ text: 'A summary.', usage: { inputTokens: 60_000 } }], {
        modelId: 'cheap-summarizer',
      });
      const { agent, main } = foldingAgent({ reads: 3, summarizer, limits: { maxTokens: 50_000 } });
      const error = await agent.send(FOLD_TASK).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(LoushoError.isInstance(error)).toBe(true);
      if (!LoushoError.isInstance(error)) return;
      expect(error.code).toBe('LOUSHO_LIMIT_EXCEEDED');
      expect(error.details).toMatchObject({ limit: 'maxTokens', max: 50_000 });
      expect(main.model.calls).toHaveLength(2);
      const partial = partialResult(error);
      expect(partial?.usage.byModel['cheap-summarizer']?.inputTokens).toBe(60_000);
      expect(partial?.messages.length).toBeGreaterThan(2);
      expect(partial?.messages.some((m) => contentText(m.content).startsWith(SUMMARY_HEADER))).toBe(true);
    });
  });

  describe('createAgent({ compaction })', () => {
    it('true installs the hook with its defaults: prune above 90% of the registered window', async () => {
      registerModel({ id: 'mock-model', provider: 'mock', contextWindow: 6_000 });
      const agent = createAgent({ provider: mockModel(readsThenDone(10)), tools: [readTool(4_300)], compaction: true });
      expect(agent.hooks.list().map((h) => h.name)).toEqual(['compaction']);
      const { events, result } = await collect(agent.stream('Review the repository.'));
      expect(result.text).toBe('done');
      const starts = startsOf(events);
      expect(starts.length).toBeGreaterThan(0);
      for (const start of starts) {
        expect(start).toMatchObject({ strategy: 'prune-tool-results', contextWindow: 6_000, thresholdTokens: 5_400 });
      }
      expect(donesOf(events).some((d) => d.prunedToolCallIds.length > 0)).toBe(true);
      expect(warn).not.toHaveBeenCalled();
      // No compaction option: no hook.
      expect(createAgent({ provider: mockModel(['ok']) }).hooks.list()).toEqual([]);
    });

    it('{ summarizer } selects the two-phase strategy with that model', async () => {
      const summarizer = mockModel(['Summary of the task and the first file.'], { modelId: 'cheap-summarizer' });
      const agent = createAgent({
        provider: mockModel(readsThenDone(3)),
        instructions: 'You are a careful reviewer.',
        tools: [readTool((call) => (call === 0 ? 1_300 : 7_700))],
        compaction: { contextWindow: FOLD_WINDOW, thresholdPercent: FOLD_PERCENT, protectedTokens: 100, summarizer },
      });
      const { events, result } = await collect(agent.stream(FOLD_TASK));
      expect(result.text).toBe('done');
      const compactions = events.filter(isCompaction);
      expect(compactions.length).toBeGreaterThan(0);
      for (const event of compactions) expect(event.strategy).toBe('two-phase');
      expect(donesOf(events).some((d) => d.summary === true)).toBe(true);
      expect(summarizer.calls).toHaveLength(1);
    });

    it('summarizer together with strategy is LOUSHO_CONFIG_INVALID', () => {
      let thrown: unknown;
      try {
        createAgent({
          provider: mockModel(['ok']),
          compaction: { summarizer: mockModel(['s']), strategy: pruneToolResultsStrategy() },
        });
      } catch (error) {
        thrown = error;
      }
      expect(LoushoError.isInstance(thrown)).toBe(true);
      expect(LoushoError.isInstance(thrown) ? thrown.code : undefined).toBe('LOUSHO_CONFIG_INVALID');
    });
  });

  describe('hooks from createAgent({ hooks })', () => {
    it('run before the compaction hook, which sees the messages they added', async () => {
      const order: string[] = [];
      const addition = `Context the hook adds: ${prose(12, 6_000)}`;
      const injector: AgentHook = {
        name: 'inject-context',
        preGenerate({ request, run }) {
          order.push(`inject:${run.step}`);
          if (run.step === 1) request.messages.push({ role: 'user', content: addition });
        },
      };
      const { strategy } = recordingStrategy();
      const watched: CompactionStrategy = {
        name: strategy.name,
        compact(input) {
          order.push(`compact:${input.messages.length}`);
          return strategy.compact(input);
        },
      };
      const main = recordingModel(() => 'ok');
      const agent = createAgent({
        provider: main.model,
        hooks: [injector],
        compaction: { contextWindow: 4_000, thresholdPercent: 0.225, strategy: watched },
      });
      expect(agent.hooks.list().map((h) => h.name)).toEqual(['inject-context', 'compaction']);
      const { events } = await collect(agent.stream('Hello.'));
      expect(order).toEqual(['inject:1', 'compact:2']);
      const [start] = startsOf(events);
      // Without the hook's message the request is ~5 tokens; with it, over the 900-token threshold.
      expect(start?.tokensBefore).toBe(main.received[0]?.tokens);
      expect(main.received[0]?.messages.map((m) => m.content)).toEqual(['Hello.', addition]);
    });

    it('run before the compaction hook, which sees content they added to an existing message', async () => {
      const addition = `\nContext the hook adds: ${prose(13, 6_000)}`;
      const enricher: AgentHook = {
        name: 'enrich-task',
        preGenerate({ request, run }) {
          // At step 2, append context to the task message (already counted at step 1).
          const task = request.messages[0];
          if (run.step === 2 && task?.role === 'user' && typeof task.content === 'string') task.content += addition;
        },
      };
      const main = recordingModel(readsThenDone(1));
      const agent = createAgent({
        provider: main.model,
        tools: [readTool(200)],
        hooks: [enricher],
        compaction: { contextWindow: 4_000, thresholdPercent: 0.225 },
      });
      const { events } = await collect(agent.stream('Review the repository.'));
      // The step-2 request, with the hook's addition, is over the 900-token threshold...
      expect(main.received[0]?.tokens).toBeLessThan(900);
      expect(main.received[1]?.tokens).toBeGreaterThan(900);
      expect(contentText(main.received[1]?.messages[0]?.content ?? '')).toContain(addition);
      // ...so the compaction hook, which runs after the enricher, must see it.
      const compactions = compactionSteps(events);
      expect(
        compactions.map((c) => `${c.step}:${c.event.type}`),
        `the step-2 request was ${main.received[1]?.tokens} tokens, over the threshold of 900, but the hook did not compact`,
      ).toEqual(['2:compaction.start', '2:compaction.done']);
      expect(compactions[0]?.event.tokensBefore).toBe(main.received[1]?.tokens);
    });
  });

  describe('listeners', () => {
    const setup = (extra: { onEvent?: (event: AgentEvent) => void } = {}) => {
      const seen = probe();
      const infos: CompactionInfo[] = [];
      const agent = createAgent({
        provider: mockModel(readsThenDone(10)),
        tools: [readTool(4_300)],
        hooks: [seen.hook],
        compaction: { contextWindow: 6_000, onCompaction: (info) => infos.push(info) },
        ...extra,
      });
      return { agent, seen, infos };
    };
    const summaryOf = (dones: CompactionDoneEvent[]) =>
      dones.map((d) => [d.tokensBefore, d.tokensAfter, d.prunedToolCallIds.join(',')]);

    it('a send() without listeners emits nothing but still compacts; onEvent, agent.stream() and AgentExecutor.stream() all get the events', async () => {
      const silent = setup();
      const sent = await silent.agent.send('Review the repository.');
      expect(silent.seen.seen.length).toBe(11);
      expect(silent.seen.seen.every((s) => !s.hasEmit)).toBe(true);
      expect(silent.infos.length).toBeGreaterThan(0);
      expect(sent.messages.some(isMarkerMessage)).toBe(true);
      const expected = silent.infos.map((i) => [i.tokensBefore, i.tokensAfter, i.prunedToolCallIds.join(',')]);

      // createAgent({ onEvent })
      const agentEvents: AgentEvent[] = [];
      const withListener = setup({ onEvent: (e) => agentEvents.push(e) });
      const heard = await withListener.agent.send('Review the repository.');
      expect(withListener.seen.seen.every((s) => s.hasEmit)).toBe(true);
      expect(summaryOf(donesOf(agentEvents))).toEqual(expected);
      expect(startsOf(agentEvents)).toHaveLength(expected.length);
      expect(heard.messages.map((m) => m.content)).toEqual(sent.messages.map((m) => m.content));

      // send(input, { onEvent })
      const runEvents: AgentEvent[] = [];
      await setup().agent.send('Review the repository.', { onEvent: (e) => runEvents.push(e) });
      expect(summaryOf(donesOf(runEvents))).toEqual(expected);

      // agent.stream()
      const streamed = await collect(setup().agent.stream('Review the repository.'));
      expect(summaryOf(donesOf(streamed.events))).toEqual(expected);
      expect(startsOf(streamed.events)).toHaveLength(expected.length);

      // AgentExecutor.stream() with a HookRegistry
      const hooks = new HookRegistry();
      hooks.register(createCompactionHook({ contextWindow: 6_000 }));
      const executed = await collect(
        AgentExecutor.stream({
          agent: {},
          input: 'Review the repository.',
          provider: mockModel(readsThenDone(10)),
          toolRegistry: new ToolRegistry([readTool(4_300)]),
          hooks,
        }),
      );
      expect(summaryOf(donesOf(executed.events))).toEqual(expected);
      expect(startsOf(executed.events)).toHaveLength(expected.length);
      expect(executed.result.messages.map((m) => m.content)).toEqual(sent.messages.map((m) => m.content));

      // AgentExecutor.execute() with onEvent
      const executeEvents: AgentEvent[] = [];
      await AgentExecutor.execute({
        agent: {},
        input: 'Review the repository.',
        provider: mockModel(readsThenDone(10)),
        toolRegistry: new ToolRegistry([readTool(4_300)]),
        hooks: new HookRegistry([createCompactionHook({ contextWindow: 6_000 })]),
        onEvent: (e) => executeEvents.push(e),
      });
      expect(summaryOf(donesOf(executeEvents))).toEqual(expected);
    });
  });
});
