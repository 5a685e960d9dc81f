import { describe, expect, it } from 'vitest';
import { isFoldMarker } from '../compaction/fold-turns.js';
import { FIT_LOW_WATER_PERCENT } from '../compaction/trigger.js';
import type { AgentEvent, RecoveryEvent } from '../contracts/agent-event.js';
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
  it(`brings a request over the window down to ${FIT_LOW_WATER_PERCENT * 100}% of it, oldest turns first, not to a few hundred tokens`, async () => {
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
    expect(tokens).toBeLessThanOrEqual(WINDOW * FIT_LOW_WATER_PERCENT);
    expect(tokens).toBeGreaterThan(WINDOW * FIT_LOW_WATER_PERCENT * 0.8);
    // The newest turns went out as they were; the oldest were folded into one marker turn after the task.
    expect(sent.messages.slice(-6)).toEqual(input.slice(-6));
    expect(sent.messages[0]).toEqual(input[0]);
    expect(sent.messages.filter(isFoldMarker)).toHaveLength(1);
    const recovery = events.filter((e): e is RecoveryEvent => e.type === 'recovery.done');
    expect(recovery.map((e) => e.kind)).toEqual(['oversized-request']);
    expect(recovery[0]?.action).toMatch(/compacted the request from \d+ to \d+ tokens before sending/);
  });
});
