import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { CompactionStartEvent } from '../contracts/agent-event.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { compactMessages } from './compact-messages.js';
import type { CompactionStrategy } from './types.js';

describe('compactMessages() and session.compact() through the one runner', () => {
  it('refuse a strategy that separates a call from its result, returning the input and a typed error', async () => {
    const history = readingTranscript(3);
    const broken: CompactionStrategy = {
      name: 'drop-a-result',
      compact: ({ messages }) => ({
        messages: messages.filter((m) => m.role !== 'tool'),
        tokensBefore: 0,
        tokensAfter: 0,
        prunedToolCallIds: [],
      }),
    };
    const result = await compactMessages(history, { strategy: broken });
    expect(result.messages).toEqual(history);
    expect((result.error as { code?: string } | undefined)?.code).toBe('LOUSHO_STRATEGY_RESULT_INVALID');
  });

  it("read the window the model's server reports, as a run does", async () => {
    const provider = mockModel(['ok'], { contextWindow: 8_192 });
    const agent = createAgent({ provider });
    const session = agent.session();
    const starts: CompactionStartEvent[] = [];
    session.on((event) => {
      if (event.type === 'compaction.start') starts.push(event);
    });
    await session.send('hello');
    await session.compact();
    expect(starts[0]?.contextWindow).toBe(8_192);
    expect(starts[0]?.thresholdTokens).toBe(Math.floor(8_192 * 0.9));

    const served = mockModel([], { contextWindow: 8_192 });
    const history = readingTranscript(12, 3_000);
    const byServer = await compactMessages(history, { model: served });
    const byTable = await compactMessages(history, { model: 'gpt-4o' });
    // An 8K window protects at most half its threshold (3,686 tokens), a 128K one 40,000: more is pruned.
    expect(byServer.prunedToolCallIds.length).toBeGreaterThan(byTable.prunedToolCallIds.length);
  });
});
