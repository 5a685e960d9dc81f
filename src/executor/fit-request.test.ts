import { describe, expect, it } from 'vitest';
import { isFoldMarker } from '../compaction/fold-turns.js';
import { FIT_LOW_WATER_SHARE } from '../compaction/overflow-recovery.js';
import type { AgentEvent, RecoveryEvent } from '../contracts/agent-event.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { prose } from '../test-support/text.js';
import { toolTurn } from '../test-support/transcripts.js';
import { mockModel } from '../testing/mock-model.js';
import { AgentExecutor } from './agent-executor.js';

const WINDOW = 32_000;

/** A stored transcript of `turns` reads of ~600 tokens each, far larger than the window. */
function history(turns: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Review every file of the repository.' }];
  for (let i = 0; i < turns; i++) {
    messages.push(...toolTurn(`h${i}`, 'read', { path: `src/f${i}.ts` }, `// src/f${i}.ts\n${prose(i + 1, 2_400)}`));
  }
  return messages;
}

describe('the last-resort fit (no compaction hook)', () => {
  it(`brings a request over the window down to ${FIT_LOW_WATER_SHARE * 100}% of it, oldest turns first, not to a few hundred tokens`, async () => {
    const input = history(200);
    expect(estimateTokens(input)).toBeGreaterThan(3 * WINDOW);
    const model = mockModel(['done'], { contextWindow: WINDOW });
    const events: AgentEvent[] = [];
    const result = await AgentExecutor.execute({
      agent: {},
      input,
      provider: model,
      onEvent: (event) => events.push(event),
    });
    expect(result.text).toBe('done');
    const sent = model.calls[0] as (typeof model.calls)[number];
    const tokens = estimateTokens(sent);
    expect(tokens).toBeLessThanOrEqual(WINDOW * FIT_LOW_WATER_SHARE);
    expect(tokens).toBeGreaterThan(WINDOW * FIT_LOW_WATER_SHARE * 0.8);
    // The newest turns went out as they were; the oldest were folded into one marker turn after the task.
    expect(sent.messages.slice(-6)).toEqual(input.slice(-6));
    expect(sent.messages[0]).toEqual(input[0]);
    expect(sent.messages.filter(isFoldMarker)).toHaveLength(1);
    const recovery = events.filter((e): e is RecoveryEvent => e.type === 'recovery.done');
    expect(recovery.map((e) => e.kind)).toEqual(['oversized-request']);
    expect(recovery[0]?.action).toMatch(/compacted the request from \d+ to \d+ tokens before sending/);
  });
});

describe('a rejection of a request our estimate puts far under the stated window', () => {
  it('counts the request as the provider does (over its window), and a request with nothing to compact fails saying both counts', async () => {
    const rejection = new LoushoError(
      'LOUSHO_CONTEXT_OVERFLOW',
      "This model's maximum context length is 24000 tokens.",
      {
        details: { limit: 24_000 },
      },
    );
    const model = mockModel([rejection, rejection, rejection, rejection]);
    const error = await AgentExecutor.execute({ agent: {}, input: 'Hello', provider: model }).then(
      () => expect.fail('the run should fail'),
      (e: unknown) => e as LoushoError,
    );
    expect(error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    // Not "N tokens against a target of N - 1": the provider counted over 24,000; our estimate is a few tokens.
    const ours = estimateTokens({ model: 'mock-model', messages: [{ role: 'user', content: 'Hello' }] });
    expect(error.message).toMatch(
      /^The request does not fit: 24001 tokens by the provider's count \((\d+) by our estimate/,
    );
    expect(Number(/\((\d+) by our estimate/.exec(error.message)?.[1])).toBe(ours);
    expect(error.message).toContain('against a target of 20400');
    expect(model.calls).toHaveLength(1);
  });
});
