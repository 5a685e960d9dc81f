import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { mockModel } from '../testing/mock-model.js';

describe('session.compact()', () => {
  it("keeps the session's reserveOutputTokens: the threshold is at most the window less the reserve", async () => {
    const agent = createAgent({ provider: mockModel(['ok']) });
    const session = agent.session({ compaction: { contextWindow: 10_000, reserveOutputTokens: 4_000 } });
    const events: AgentEvent[] = [];
    session.on((e) => events.push(e));
    await session.send('Review the repository.');
    await session.compact();
    const start = events.find((e) => e.type === 'compaction.start');
    expect(start).toMatchObject({ trigger: 'manual', contextWindow: 10_000, thresholdTokens: 6_000 });
  });
});
