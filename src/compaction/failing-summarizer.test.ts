/**
 * A summarizer that fails is not called at every step: after a failure, summaries pause
 * the way they pause after a rejection, until the transcript has doubled.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { CompactionDoneEvent } from '../contracts/agent-event.js';
import type { Summarizer } from '../core/summarizer.js';
import type { Tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { prose } from '../test-support/text.js';
import { mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import { compactorStrategy } from './compactor-strategy.js';
import { twoPhaseStrategy } from './two-phase.js';
import type { CompactionStrategy } from './types.js';

const STEPS = 100;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

/**
 * A 100-step run on an 8K window that reads a ~1,000-token file a step, after a task of
 * ~3,000 tokens that nothing but a summary can shrink, so summaries are tried from the
 * first steps on. Records, at each summarizer call, how many messages the run had added
 * (the user message, then an assistant message and a result a step), whatever a compaction removed.
 */
async function runWith(strategy: (calledAt: number[], added: () => number) => CompactionStrategy) {
  let steps = 0;
  const calledAt: number[] = [];
  const read: Tool<never, unknown> = {
    name: 'read',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    execute: (args: { path: string }) => `// ${args.path}\n${prose(args.path.length * 31 + steps, 4_000)}`,
  };
  const main = mockModel((_request, index) => {
    steps = index + 1;
    if (index >= STEPS) return 'done';
    return { toolCalls: [{ name: 'read', arguments: { path: `src/file${index}.ts` } }] };
  });
  const dones: CompactionDoneEvent[] = [];
  const agent = createAgent({
    provider: main,
    tools: [read],
    hooks: [createCompactionHook({ contextWindow: 8_000, strategy: strategy(calledAt, () => 1 + 2 * steps) })],
    limits: { maxSteps: STEPS + 1 },
    onEvent: (event) => {
      if (event.type === 'compaction.done') dones.push(event);
    },
  });
  const result = await agent.send(`Read every file. Context: ${prose(7, 18_000)}`);
  return { result, calledAt, dones };
}

/** Every call after the first saw a transcript at least twice as long as the call before it. */
function expectDoubling(calledAt: readonly number[]): void {
  for (let i = 1; i < calledAt.length; i++) {
    expect(
      calledAt[i],
      `call ${i + 1} at ${calledAt[i]} messages, call ${i} at ${calledAt[i - 1]}`,
    ).toBeGreaterThanOrEqual(2 * (calledAt[i - 1] as number));
  }
}

describe('a summarizer that always fails', () => {
  it('is called again only once the transcript has doubled: a bounded number of calls in a 100-step run (two-phase)', async () => {
    const { result, calledAt, dones } = await runWith((calledAt, length) => {
      const failing = mockModel(() => {
        calledAt.push(length());
        return new Error('summarizer unavailable');
      });
      return twoPhaseStrategy({ model: failing });
    });
    expect(result.text).toBe('done');
    expect(result.steps).toBe(STEPS + 1);
    expect(calledAt.length).toBeGreaterThanOrEqual(3);
    expectDoubling(calledAt);
    // The run adds 202 messages; the first failure came at L of them, so at most 1 + log2(202 / L) calls.
    expect(calledAt.length).toBeLessThanOrEqual(1 + Math.floor(Math.log2(202 / (calledAt[0] as number))));
    expect(calledAt.length).toBeLessThanOrEqual(8);
    // Each failure is reported, and the run kept the pruned conversation.
    const failed = dones.filter((d) => d.error !== undefined);
    expect(failed).toHaveLength(calledAt.length);
    for (const done of failed) expect(done.error?.message).toMatch(/summarizer unavailable/);
  });

  it('pauses any strategy that failed the same way, running its prune step meanwhile (a Compactor whose Summarizer throws)', async () => {
    const { result, calledAt, dones } = await runWith((calledAt, length) => {
      const throwing: Summarizer<Message> = {
        summarize: async () => {
          calledAt.push(length());
          throw new Error('summarizer down');
        },
      };
      return compactorStrategy({ summarizer: throwing });
    });
    expect(result.text).toBe('done');
    expect(calledAt.length).toBeGreaterThanOrEqual(3);
    expectDoubling(calledAt);
    expect(calledAt.length).toBeLessThanOrEqual(1 + Math.floor(Math.log2(202 / (calledAt[0] as number))));
    // While the Compactor is paused, the hook prunes (and folds) instead.
    expect(dones.some((d) => d.strategy === 'prune-tool-results' && d.unchanged !== true)).toBe(true);
  });
});
