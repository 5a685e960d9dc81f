/**
 * A long tool-heavy run under the compaction hook: 320 steps, each reading a file of
 * 3,000-12,000 characters, on a 32K window with the two-phase strategy and a scripted
 * summarizer. The run must never send the model a request above the threshold, must
 * both prune and summarize along the way, and must end with a valid transcript.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent, CompactionStartEvent } from '../contracts/agent-event.js';
import type { Tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { registerModel, resetModelRegistry } from '../models/registry.js';
import { mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import { isPrunedMarker } from './marker.js';
import { SUMMARY_HEADER } from './summarize.js';
import { twoPhaseStrategy } from './two-phase.js';

const MODEL = 'long-run-model';
const WINDOW = 32_768;
const THRESHOLD = Math.floor(WINDOW * 0.9); // 29,491
const STEPS = 320;
const INSTRUCTIONS = 'You are a code reviewer. Read every file of the repository, one at a time, then report.';

const WORDS = (
  'alpha beta gamma delta river stone cloud market vector orange silver lantern harbor quiet rapid ' +
  'module buffer parser token window summary engine branch commit review deploy config server client ' +
  'cache thread socket report function return const export import interface async await promise'
).split(' ');

/** A small deterministic PRNG (LCG). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return s;
  };
}

/** `chars` characters of varied code-like text, the same for the same seed. */
function fileText(seed: number, chars: number): string {
  const next = random(seed * 2_654_435_761);
  const lines: string[] = [];
  let length = 0;
  while (length < chars) {
    const words: string[] = [];
    const count = 4 + (next() % 9);
    for (let i = 0; i < count; i++) words.push(`${WORDS[next() % WORDS.length]}${next() % 211}`);
    const line = `${' '.repeat(2 * (next() % 4))}${words.join(next() % 3 === 0 ? '.' : ' ')};`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

/** Result sizes between 3,000 and 12,000 characters, varied but reproducible. */
const sizeOf = (() => {
  const next = random(42);
  const sizes = Array.from({ length: STEPS + 1 }, () => 3_000 + (next() % 9_001));
  return (step: number) => sizes[step % sizes.length] ?? 6_000;
})();

let warn: MockInstance<typeof console.warn>;

beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  registerModel({ id: MODEL, provider: 'mock', contextWindow: WINDOW });
});

afterEach(() => {
  warn.mockRestore();
  resetModelRegistry();
});

describe('a long run under compaction', () => {
  it('keeps every request of a 320-step run under the threshold by pruning and summarizing, and ends with a valid transcript', async () => {
    let reads = 0;
    const read: Tool<never, unknown> = {
      name: 'read',
      description: 'Read a file of the repository.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute(args: { path: string }) {
        const n = reads++;
        return `// ${args.path}\n${fileText(n + 1, sizeOf(n))}`;
      },
    };

    // Every request the main model received, measured when it arrived (the transcript grows after the call).
    const received: number[] = [];
    const main = mockModel(
      (request, index) => {
        received.push(estimateTokens(request));
        if (index >= STEPS) return 'All files reviewed; the report follows.';
        return {
          text: `Step ${index}: notes on file ${index - 1}: ${fileText(10_000 + index, 400)} Reading the next one.`,
          toolCalls: [{ name: 'read', arguments: { path: `src/module${index % 17}/file${index}.ts` } }],
        };
      },
      { modelId: MODEL, provider: 'mock' },
    );
    let summaries = 0;
    const summarizer = mockModel(
      () => {
        summaries++;
        return `Summary ${summaries}: the reviewer read the files so far; no problems found yet. Keep reading.`;
      },
      { modelId: 'long-run-summarizer', provider: 'mock' },
    );

    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: main,
      instructions: INSTRUCTIONS,
      tools: [read],
      hooks: [createCompactionHook({ strategy: twoPhaseStrategy({ model: summarizer }) })],
      limits: { maxSteps: 2_000 },
      onEvent: (event) => {
        if (event.type !== 'text.delta') events.push(event);
      },
    });

    const result = await agent.send('Review the repository.');

    // The run finished normally.
    expect(result.text).toBe('All files reviewed; the report follows.');
    expect(result.steps).toBe(STEPS + 1);
    expect(reads).toBe(STEPS);
    expect(warn).not.toHaveBeenCalled();

    // No request the main model received was above the threshold.
    expect(received).toHaveLength(STEPS + 1);
    const over = received.filter((tokens) => tokens > THRESHOLD);
    expect(over).toEqual([]);
    // ...and the run did get close to it: without compaction it would have been far above.
    expect(Math.max(...received)).toBeGreaterThan(THRESHOLD * 0.75);

    // Compactions happened: pruning and at least one summary, none failed.
    const starts = events.filter((e): e is CompactionStartEvent => e.type === 'compaction.start');
    const dones = events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    expect(dones.length).toBe(starts.length);
    expect(dones.length).toBeGreaterThan(10);
    for (const start of starts) expect([start.contextWindow, start.thresholdTokens]).toEqual([WINDOW, THRESHOLD]);
    expect(dones.filter((d) => d.error !== undefined)).toEqual([]);
    const pruned = dones.flatMap((d) => d.prunedToolCallIds);
    expect(pruned.length).toBeGreaterThan(100);
    expect(new Set(pruned).size).toBe(pruned.length);
    const summarized = dones.filter((d) => d.summary === true);
    expect(summarized.length).toBeGreaterThanOrEqual(2); // a summary of a transcript that already holds one, too
    expect(summarizer.calls.length).toBe(summarized.length);
    for (const done of dones) {
      if (done.unchanged !== true) expect(done.tokensAfter).toBeLessThanOrEqual(THRESHOLD);
    }
    // The summarizer's calls are part of the run.
    expect(result.usage.byModel['long-run-summarizer']?.calls).toBe(summarizer.calls.length);
    expect(result.usage.modelCalls.filter((c) => c.purpose === 'compaction')).toHaveLength(summarizer.calls.length);

    // The final transcript is valid.
    const messages: Message[] = result.messages;
    validateMessages(messages);
    expect(messages[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(messages.some((m) => m.role === 'user' && contentText(m.content).startsWith(SUMMARY_HEADER))).toBe(true);
    expect(messages.some((m) => m.role === 'tool' && isPrunedMarker(contentText(m.content)))).toBe(true);
    const callAt = new Map<string, number>();
    const resultsOf = new Map<string, number[]>();
    messages.forEach((m, i) => {
      if (m.role === 'assistant') {
        for (const call of m.toolCalls ?? []) {
          expect(callAt.has(call.id)).toBe(false); // call ids are unique
          callAt.set(call.id, i);
        }
      } else if (m.role === 'tool') {
        resultsOf.set(m.toolCallId, [...(resultsOf.get(m.toolCallId) ?? []), i]);
      }
    });
    for (const [id, at] of callAt) {
      const results = resultsOf.get(id) ?? [];
      expect(results, `results of call ${id}`).toHaveLength(1);
      expect(results[0] ?? -1, `result of call ${id} comes after it`).toBeGreaterThan(at);
    }
    for (const [id, at] of resultsOf) {
      const call = callAt.get(id);
      expect(call, `the call of result ${id}`).toBeDefined();
      expect(at[0] ?? -1).toBeGreaterThan(call ?? Number.POSITIVE_INFINITY);
    }
    // The transcript ends with the final answer, after the latest turn's intact result.
    const last = messages[messages.length - 1];
    expect(last).toEqual({ role: 'assistant', content: 'All files reviewed; the report follows.' });
  });
});
