import { describe, expect, it } from 'vitest';
import { createCompactionHook } from '../compaction/compaction-hook.js';
import { summarizeStrategy } from '../compaction/summarize.js';
import type { CompactionEvent } from '../contracts/agent-event.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { prose } from '../test-support/text.js';
import { toolTurn } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { ConversationCompaction, ConversationPool } from './conversation-compaction.js';

/** A growing conversation, as a framework sends it: a fresh copy of every message on each call. */
function conversation(turns: number, size = 4_000): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Review the files.' }];
  for (let i = 0; i < turns; i++) messages.push(...toolTurn(`call_${i}`, 'read', { i }, prose(i, size)));
  return messages;
}

const copies = (messages: Message[]) => structuredClone(messages);
const request = { model: 'test-model' };

describe('ConversationCompaction', () => {
  it('converts only the messages a continued prompt added, recognising the old ones by value', async () => {
    const converted: number[] = [];
    const compaction = new ConversationCompaction<Message>(createCompactionHook({ contextWindow: 100_000 }), 'test');
    const convert = (added: readonly Message[]) => {
      converted.push(added.length);
      return added.slice();
    };
    const first = await compaction.compact(copies(conversation(2)), convert, request);
    const second = await compaction.compact(copies(conversation(3)), convert, request);
    expect(second.messages).toBe(first.messages);
    expect(converted).toEqual([5, 2]);
    expect(second.compacted).toBe(false);
    const edited = conversation(3);
    edited[0] = { role: 'user', content: 'Review the tests.' };
    const third = await compaction.compact(edited, convert, request);
    expect(converted).toEqual([5, 2, 7]);
    expect(third.messages).not.toBe(first.messages);
  });

  it('over 1,000 steps of a prompt rebuilt each step, converts only what each step added and compares a bounded few messages', async () => {
    const compaction = new ConversationCompaction<Message>(
      createCompactionHook({ contextWindow: 16_000, protectedTokens: 2_000 }),
      'test',
      undefined,
      16_000,
    );
    const framework = conversation(0);
    let compactions = 0;
    for (let step = 0; step < 1_000; step++) {
      framework.push(...toolTurn(`call_${step}`, 'read', { step }, prose(step, 1_000)));
      const before = compaction.work;
      const result = await compaction.compact(
        framework.map((m) => ({ ...m })),
        (added) => added.slice(),
        request,
      );
      const after = compaction.work;
      expect(after.converted - before.converted).toBe(step === 0 ? 3 : 2);
      expect(after.compared - before.compared).toBeLessThanOrEqual(9);
      if (result.changed) compactions++;
      expect(estimateTokens(result.messages, request.model)).toBeLessThan(16_000);
    }
    expect(compactions).toBeGreaterThan(10);
  });

  it('keeps a summary between calls: the summarizer runs again only when the conversation outgrows it', async () => {
    const summarizer = mockModel(() => 'Summary: files 0.. were read.', { modelId: 'summarizer' });
    const hook = createCompactionHook({
      contextWindow: 12_000,
      protectedTokens: 3_000,
      strategy: summarizeStrategy({ model: summarizer }),
    });
    const compaction = new ConversationCompaction<Message>(hook, 'test');
    const sizes: number[] = [];
    for (let turns = 1; turns <= 40; turns++) {
      const { messages } = await compaction.compact(
        copies(conversation(turns, 2_000)),
        (added) => added.slice(),
        request,
      );
      sizes.push(estimateTokens(messages, request.model));
    }
    expect(Math.max(...sizes)).toBeLessThan(12_000 * 0.9);
    // Restarting from the framework's whole prompt would summarize on every call above the threshold.
    const drops = sizes.filter((size, i) => i > 0 && size < (sizes[i - 1] as number)).length;
    expect(drops).toBe(2);
    expect(summarizer.calls).toHaveLength(drops);
  });

  it('calibrates with the prompt tokens the provider reported, so a provider that counts more is compacted earlier', async () => {
    const run = async (reported: (estimate: number) => number) => {
      const events: CompactionEvent[] = [];
      const compaction = new ConversationCompaction<Message>(
        createCompactionHook({ contextWindow: 20_000, protectedTokens: 2_000 }),
        'test',
        (e) => events.push(e),
      );
      for (let turns = 1; turns <= 16; turns++) {
        const { messages } = await compaction.compact(
          copies(conversation(turns, 6_000)),
          (added) => added.slice(),
          request,
        );
        await compaction.reported(reported(estimateTokens(messages, request.model)));
      }
      return events.find((e) => e.type === 'compaction.start')?.step;
    };
    const honest = await run((estimate) => estimate);
    const heavier = await run((estimate) => estimate + 6_000);
    expect(honest).toBeDefined();
    expect(heavier).toBeLessThan(honest as number);
  });
});

describe('ConversationPool', () => {
  it('gives each interleaved conversation its own compacted transcript', async () => {
    const pool = new ConversationPool<Message>({ contextWindow: 100_000 }, 'test');
    const a = conversation(1);
    const b: Message[] = [{ role: 'user', content: 'Another chat.' }];
    const first = pool.pick(a);
    await first.compact(a, (x) => x.slice(), request);
    const second = pool.pick(b);
    await second.compact(b, (x) => x.slice(), request);
    expect(second).not.toBe(first);
    expect(pool.pick(copies(conversation(2)))).toBe(first);
    expect(pool.pick([...b, { role: 'assistant', content: 'Hi.' }])).toBe(second);
  });
});
