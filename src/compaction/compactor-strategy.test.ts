/**
 * compactorStrategy(): the core Compactor as a strategy of the compaction hook, and the
 * Summarizer instances that summarizeStrategy() and twoPhaseStrategy() accept instead of a
 * model (specification "Context Management": drain, then summarize, the newest messages
 * untouched; TruncatingSummarizer or LLMSummarizer).
 */
import { describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent, CompactionStartEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { LLMSummarizer } from '../core/llm-summarizer.js';
import { TruncatingSummarizer } from '../core/summarizer.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { AgentStream } from '../executor/stream-run.js';
import type { Tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import { pinMessage } from '../messages/pin.js';
import { renderMessage } from '../messages/render.js';
import type { Message } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { type CompactionInfo, createCompactionHook } from './compaction-hook.js';
import { COMPACTOR_STRATEGY_NAME, compactorStrategy, messageAdapter } from './compactor-strategy.js';
import { SUMMARY_HEADER, summarizeStrategy } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';
import type { CompactionInput } from './types.js';

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

const WORDS = 'alpha beta gamma delta river stone cloud market vector orange silver lantern harbor quiet'.split(' ');

/** `chars` characters of varied text, the same for the same seed. */
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

function input(messages: Message[], thresholdTokens: number, contextWindow = 100_000): CompactionInput {
  return {
    messages,
    estimateTokens: (list) => estimateTokens(list),
    countMessage: (m) => messageTokens(m),
    contextWindow,
    protectedTokens: 0,
    thresholdTokens,
  };
}

function errorCode(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return LoushoError.isInstance(error) ? error.code : 'not a LoushoError';
  }
  return undefined;
}

async function collect(stream: AgentStream): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

const dones = (events: readonly AgentEvent[]) =>
  events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
const starts = (events: readonly AgentEvent[]) =>
  events.filter((e): e is CompactionStartEvent => e.type === 'compaction.start');

/** A tool that reads a "file": the n-th call returns sizes[n] characters. */
function readTool(sizes: readonly number[]): Tool<never, unknown> {
  let n = 0;
  return {
    name: 'read',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute(args: { path: string }) {
      const size = sizes[n] ?? 100;
      n++;
      return `// ${args.path}\n${prose(n * 7_919, size)}`;
    },
  };
}

/** A model that reads `reads` files, one a step (call ids r0, r1, ...), then answers 'done'; it records each request. */
function reader(reads: number) {
  const seen: Message[][] = [];
  const model = mockModel((request: ModelRequest, index: number): string | MockReply => {
    seen.push([...request.messages]);
    if (index >= reads) return 'done';
    return {
      text: `Reading file ${index}.`,
      toolCalls: [{ id: `r${index}`, name: 'read', arguments: { path: `f${index}.ts` } }],
    };
  });
  return { model, seen };
}

// ---------------------------------------------------------------------------------------
// compactorStrategy() in a run
// ---------------------------------------------------------------------------------------

const hasCallTo = (messages: readonly Message[], id: string) =>
  messages.some((m) => m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.id === id));
const hasResultOf = (messages: readonly Message[], id: string) =>
  messages.some((m) => m.role === 'tool' && m.toolCallId === id);

/**
 * The scripted run: a first file of ~1,500 tokens, two small ones, then ~1,500 tokens a
 * file, against a threshold of 4,000 tokens (8,000 x 0.5) with tailMessages 2. At step 6
 * the Compactor drains the user message and the first big turn, which is enough; at step
 * 7 draining at most half of the head (two small turns) is not, and it summarizes.
 */
function compactorRun(summarizer?: LLMSummarizer<Message>) {
  const sizes = [6_400, 300, 300, 6_400, 6_400, 6_400, 6_400];
  const main = reader(sizes.length);
  const infos: CompactionInfo[] = [];
  const agent = createAgent({
    provider: main.model,
    instructions: 'You are a careful reviewer.',
    tools: [readTool(sizes)],
    hooks: [
      createCompactionHook({
        // targetShare 1: compact to the threshold itself, so each stage shows on its own step.
        strategy: compactorStrategy({
          tailMessages: 2,
          targetShare: 1,
          ...(summarizer === undefined ? {} : { summarizer }),
        }),
        contextWindow: 8_000,
        thresholdPercent: 0.5,
        onCompaction: (info) => infos.push(info),
      }),
    ],
  });
  return { agent, seen: main.seen, infos };
}

describe('compactorStrategy() inside createCompactionHook on a scripted run', () => {
  it('drains the oldest turns first, then summarizes when draining is not enough', async () => {
    const { agent, seen, infos } = compactorRun();
    const { events, result } = await collect(agent.stream('Review the files.'));
    expect(result.text).toBe('done');
    const [drained, summarized] = dones(events);
    expect(dones(events)).toHaveLength(2);

    // Step 6: drained, no summary, under the threshold.
    expect(drained).toMatchObject({ step: 6, strategy: COMPACTOR_STRATEGY_NAME, prunedToolCallIds: [] });
    expect(drained?.summary).toBeUndefined();
    expect(drained?.error).toBeUndefined();
    expect(drained?.tokensAfter).toBeLessThanOrEqual(4_000);
    const step6 = seen[5] ?? [];
    expect(step6[0]?.role).toBe('system');
    expect(step6.some((m) => m.role === 'user')).toBe(false);
    expect(hasCallTo(step6, 'r0') || hasResultOf(step6, 'r0')).toBe(false);
    expect(hasCallTo(step6, 'r1') && hasResultOf(step6, 'r1')).toBe(true);
    expect(step6.some((m) => m.metadata?.summary === true)).toBe(false);

    // Step 7: summarized into one message after the system prompt; the newest turn as it was.
    expect(summarized).toMatchObject({ step: 7, strategy: COMPACTOR_STRATEGY_NAME, summary: true });
    expect(summarized?.tokensAfter).toBeLessThanOrEqual(4_000);
    const step7 = seen[6] ?? [];
    expect(step7).toHaveLength(4);
    expect(step7[0]?.role).toBe('system');
    expect(step7[1]).toMatchObject({ role: 'user', metadata: { summary: true } });
    expect(contentText(step7[1]?.content ?? '').startsWith(`${SUMMARY_HEADER}\n`)).toBe(true);
    for (const id of ['r1', 'r2', 'r3', 'r4']) expect(hasCallTo(step7, id) || hasResultOf(step7, id)).toBe(false);
    expect(hasCallTo(step7, 'r5') && hasResultOf(step7, 'r5')).toBe(true);
    // The newest turn is the one the model had just made: the same messages it produced.
    const before7 = result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'r5');
    expect(step7[3]).toEqual(before7);

    // The default summarizer truncates: the summary is the head's text cut to 500 characters.
    expect(infos[1]?.summary?.length).toBeLessThanOrEqual(500);
    expect(infos[1]?.summary).toContain('[assistant called read({"path":"f3.ts"})]');

    // Every request kept each tool call with its result.
    for (const request of seen) {
      for (const m of request) {
        if (m.role === 'tool') expect(hasCallTo(request, m.toolCallId)).toBe(true);
        if (m.role === 'assistant') for (const c of m.toolCalls ?? []) expect(hasResultOf(request, c.id)).toBe(true);
      }
    }
  });

  it('by default compacts well under the threshold (60% of it), so the next compaction is steps away', async () => {
    const sizes = [6_400, 300, 300, 6_400, 6_400, 6_400, 6_400];
    const main = reader(sizes.length);
    const agent = createAgent({
      provider: main.model,
      instructions: 'You are a careful reviewer.',
      tools: [readTool(sizes)],
      hooks: [
        createCompactionHook({
          strategy: compactorStrategy({ tailMessages: 2 }),
          contextWindow: 8_000,
          thresholdPercent: 0.5,
        }),
      ],
    });
    const { events } = await collect(agent.stream('Review the files.'));
    const done = dones(events).filter((e) => e.unchanged !== true);
    expect(done.length).toBeGreaterThan(0);
    for (const e of done) expect(e.tokensAfter).toBeLessThanOrEqual(Math.ceil(4_000 * 0.6) + 1_000);
  });

  it('reports strategy compactor on compaction.start and compaction.done', async () => {
    const { agent } = compactorRun();
    const { events } = await collect(agent.stream('Review the files.'));
    expect(starts(events).map((e) => e.strategy)).toEqual(['compactor', 'compactor']);
    expect(dones(events).map((e) => e.strategy)).toEqual(['compactor', 'compactor']);
    expect(dones(events).every((e) => e.appliedStrategy === undefined)).toBe(true);
  });

  it('with an LLMSummarizer, summarizes with the cheap model and counts its call in the run usage', async () => {
    const cheap = mockModel(['## Facts established\n- files f3 and f4 were read'], { modelId: 'cheap-model' });
    const { agent, seen, infos } = compactorRun(new LLMSummarizer<Message>({ model: cheap }));
    const result = await agent.send('Review the files.');
    expect(cheap.calls).toHaveLength(1);
    expect(cheap.calls[0]?.tools).toBeUndefined();
    expect(infos[1]?.summary).toBe('## Facts established\n- files f3 and f4 were read');
    expect(contentText(seen[6]?.[1]?.content ?? '')).toBe(
      `${SUMMARY_HEADER}\n## Facts established\n- files f3 and f4 were read`,
    );
    expect(result.usage.byModel['cheap-model']?.calls).toBe(1);
    expect(result.usage.byModel['mock-model']?.calls).toBe(8);
  });
});

// ---------------------------------------------------------------------------------------
// compactorStrategy() on its own
// ---------------------------------------------------------------------------------------

describe('compactorStrategy()', () => {
  const chat = (n: number, chars = 2_000): Message[] => [
    { role: 'system', content: 'You are helpful.' },
    ...Array.from(
      { length: n },
      (_, i): Message =>
        i % 2 === 0 ? { role: 'user', content: prose(i, chars) } : { role: 'assistant', content: prose(i, chars) },
    ),
  ];

  it('refuses targetPercent, the old name of targetShare, saying to rename it', () => {
    expect(() => compactorStrategy({ targetPercent: 0.5 } as never)).toThrow(/targetPercent is now targetShare/);
    expect(() => compactorStrategy({ targetShare: 0.5 })).not.toThrow();
  });

  it('is named compactor', () => {
    expect(compactorStrategy().name).toBe('compactor');
    expect(COMPACTOR_STRATEGY_NAME).toBe('compactor');
  });

  it('hands back the input array when the transcript is under the threshold', async () => {
    const messages = chat(6);
    const size = estimateTokens(messages);
    const r = await compactorStrategy().compact(input(messages, size));
    expect(r.messages).toBe(messages);
    expect(r).toMatchObject({ tokensBefore: size, tokensAfter: size, prunedToolCallIds: [] });
    expect(r.summary).toBeUndefined();
  });

  it('gets under the hook threshold and measures with the request framing included', async () => {
    const messages = chat(20);
    const size = estimateTokens(messages);
    const threshold = Math.floor(size * 0.6);
    const r = await compactorStrategy().compact(input(messages, threshold));
    expect(r.tokensBefore).toBe(size);
    expect(r.tokensAfter).toBe(estimateTokens(r.messages));
    expect(r.tokensAfter).toBeLessThanOrEqual(threshold);
  });

  it('keeps the newest 4 messages by default, or tailMessages, exactly as they were', async () => {
    const messages = chat(20);
    const threshold = Math.floor(estimateTokens(messages) * 0.2);
    const four = await compactorStrategy().compact(input(messages, threshold));
    expect(four.messages.slice(-4).every((m, i) => m === messages[messages.length - 4 + i])).toBe(true);
    expect(four.messages).toHaveLength(6); // system, summary, tail
    const six = await compactorStrategy({ tailMessages: 6 }).compact(input(messages, threshold));
    expect(six.messages.slice(-6).every((m, i) => m === messages[messages.length - 6 + i])).toBe(true);
  });

  it('keeps the system prompt and pinned messages', async () => {
    const messages = chat(20);
    messages[3] = pinMessage(messages[3] as Message);
    const r = await compactorStrategy().compact(input(messages, Math.floor(estimateTokens(messages) * 0.3)));
    expect(r.messages[0]).toBe(messages[0]);
    expect(r.messages).toContain(messages[3]);
    expect(r.summary).toBeDefined();
  });

  it("passes the hook's onModelCall and abort signal to the summarizer", async () => {
    const cheap = mockModel(['summary'], { modelId: 'cheap', provider: 'p' });
    const calls: ReportedModelCall[] = [];
    const controller = new AbortController();
    const messages = chat(20);
    const r = await compactorStrategy({ summarizer: new LLMSummarizer<Message>({ model: cheap }) }).compact({
      ...input(messages, Math.floor(estimateTokens(messages) * 0.3)),
      onModelCall: (c) => calls.push(c),
      abortSignal: controller.signal,
    });
    expect(r.summary).toBe('summary');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ provider: 'p', model: 'cheap', purpose: 'compaction' });
    expect(cheap.calls[0]?.abortSignal).toBe(controller.signal);
  });
});

describe('messageAdapter()', () => {
  const adapter = messageAdapter((m) => messageTokens(m));

  it('counts with the given counter and renders with renderMessage()', () => {
    const m: Message = { role: 'user', content: 'hello there' };
    expect(adapter.countTokens(m)).toBe(messageTokens(m));
    expect(adapter.toText(m)).toBe(renderMessage(m));
  });

  it('writes the summary as a [Conversation summary] user message', () => {
    expect(adapter.summaryMessage('S')).toEqual({
      role: 'user',
      content: `${SUMMARY_HEADER}\nS`,
      metadata: { summary: true },
    });
  });

  it('reads tool calls and results, and protects system and pinned messages', () => {
    const call: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'a', name: 'x', arguments: {} },
        { id: 'b', name: 'y', arguments: {} },
      ],
    };
    expect(adapter.callIds?.(call)).toEqual(['a', 'b']);
    expect(adapter.resultId?.({ role: 'tool', toolCallId: 'a', content: 'r' })).toBe('a');
    expect(adapter.resultId?.({ role: 'user', content: 'u' })).toBeUndefined();
    expect(adapter.isProtected?.({ role: 'system', content: 's' })).toBe(true);
    expect(adapter.isProtected?.(pinMessage({ role: 'user', content: 'u' }))).toBe(true);
    expect(adapter.isProtected?.({ role: 'user', content: 'u' })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// summarizeStrategy() and twoPhaseStrategy() with a Summarizer instead of a model
// ---------------------------------------------------------------------------------------

/** A transcript a prune cannot shrink enough: long user messages between small tool turns. */
function talkative(): Message[] {
  const out: Message[] = [{ role: 'system', content: 'sys' }];
  for (let i = 0; i < 6; i++) {
    out.push({ role: 'user', content: prose(i, 3_000) });
    out.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'note', arguments: {} }] });
    out.push({ role: 'tool', toolCallId: `c${i}`, toolName: 'note', content: 'ok' });
  }
  out.push({ role: 'assistant', content: 'last words' });
  return out;
}

describe('summarizeStrategy({ summarizer })', () => {
  it('with a TruncatingSummarizer: no model call, the head rendered and cut to maxChars', async () => {
    const messages = readingTranscript(6);
    messages.push({ role: 'assistant', content: 'Reviewing the last file.' });
    const onModelCall = vi.fn();
    const r = await summarizeStrategy({ summarizer: new TruncatingSummarizer<Message>() }).compact({
      ...input(messages, 1_000_000),
      onModelCall,
    });
    expect(r.error).toBeUndefined();
    expect(r.summary?.length).toBeLessThanOrEqual(500);
    expect(r.summary?.startsWith('[user]\nReview the repository.')).toBe(true);
    expect(r.messages[0]).toBe(messages[0]);
    expect(r.messages[1]).toEqual({
      role: 'user',
      content: `${SUMMARY_HEADER}\n${r.summary}`,
      metadata: { summary: true },
    });
    expect(onModelCall).not.toHaveBeenCalled();
  });

  it('with an LLMSummarizer: the summarizer model writes the summary and its call is reported', async () => {
    const cheap = mockModel(['## Facts established\n- six files read'], { modelId: 'cheap' });
    const calls: ReportedModelCall[] = [];
    const r = await summarizeStrategy({ summarizer: new LLMSummarizer<Message>({ model: cheap }) }).compact({
      ...input(readingTranscript(6), 1_000_000),
      onModelCall: (c) => calls.push(c),
    });
    expect(r.summary).toBe('## Facts established\n- six files read');
    expect(calls.map((c) => c.model)).toEqual(['cheap']);
    expect(cheap.calls[0]?.tools).toBeUndefined();
  });
});

describe('twoPhaseStrategy({ summarizer })', () => {
  it('prunes first and summarizes with the Summarizer when pruning is not enough', async () => {
    const messages = talkative();
    const threshold = Math.floor(estimateTokens(messages) * 0.3);
    const cheap = mockModel(['the summary'], { modelId: 'cheap' });
    const r = await twoPhaseStrategy({ summarizer: new LLMSummarizer<Message>({ model: cheap }) }).compact(
      input(messages, threshold),
    );
    expect(r.appliedStrategy).toBe('summarize');
    expect(r.summary).toBe('the summary');
    expect(r.tokensAfter).toBeLessThanOrEqual(threshold);
    expect(r.messages.some((m) => contentText(m.content) === `${SUMMARY_HEADER}\nthe summary`)).toBe(true);
  });

  it('works with a TruncatingSummarizer, no model at all', async () => {
    const messages = talkative();
    const threshold = Math.floor(estimateTokens(messages) * 0.3);
    const r = await twoPhaseStrategy({ summarizer: new TruncatingSummarizer<Message>({ maxChars: 200 }) }).compact(
      input(messages, threshold),
    );
    expect(r.appliedStrategy).toBe('summarize');
    expect(r.summary?.length).toBeLessThanOrEqual(200);
    expect(r.error).toBeUndefined();
  });

  it('an LLMSummarizer whose model fails falls back to truncation instead of failing the compaction', async () => {
    const messages = talkative();
    const onFallback = vi.fn();
    const summarizer = new LLMSummarizer<Message>({ model: mockModel([new Error('down')]), onFallback });
    const r = await twoPhaseStrategy({ summarizer }).compact(
      input(messages, Math.floor(estimateTokens(messages) * 0.3)),
    );
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(r.error).toBeUndefined();
    expect(r.summary?.length).toBeLessThanOrEqual(500);
    expect(r.summary?.startsWith('[user]\n')).toBe(true);
  });
});

describe('summarizeStrategy() and twoPhaseStrategy(): options', () => {
  it('throw LOUSHO_CONFIG_INVALID when given both model and summarizer, or neither', () => {
    for (const factory of [summarizeStrategy, twoPhaseStrategy]) {
      expect(errorCode(() => factory({ model: mockModel([]), summarizer: new TruncatingSummarizer<Message>() }))).toBe(
        'LOUSHO_CONFIG_INVALID',
      );
      expect(errorCode(() => factory({}))).toBe('LOUSHO_CONFIG_INVALID');
      expect(errorCode(() => factory({ summarizer: new TruncatingSummarizer<Message>() }))).toBeUndefined();
      expect(errorCode(() => factory({ model: mockModel([]) }))).toBeUndefined();
    }
  });

  it('throw LOUSHO_CONFIG_INVALID for a summarizer without summarize()', () => {
    const bad = JSON.parse('{"summarize": 1}');
    expect(errorCode(() => summarizeStrategy({ summarizer: bad }))).toBe('LOUSHO_CONFIG_INVALID');
    expect(errorCode(() => twoPhaseStrategy({ summarizer: bad }))).toBe('LOUSHO_CONFIG_INVALID');
  });
});
