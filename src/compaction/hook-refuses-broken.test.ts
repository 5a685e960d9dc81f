import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { Message } from '../messages/types.js';
import { findPairingProblem } from '../messages/validate.js';
import { mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import type { CompactionStrategy } from './types.js';

const read = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
  execute: () => 'content '.repeat(400),
};

/** Drops the first assistant message and keeps its result: a call separated from its result. */
const orphaning: CompactionStrategy = {
  name: 'orphaning',
  compact({ messages, estimateTokens }) {
    const at = messages.findIndex((m) => m.role === 'assistant');
    const out = messages.filter((_, i) => i !== at);
    return {
      messages: out,
      tokensBefore: estimateTokens(messages),
      tokensAfter: estimateTokens(out),
      prunedToolCallIds: [],
    };
  },
};

describe('the compaction hook and a strategy that breaks the transcript', () => {
  it('refuses the result, reports the error, keeps the transcript valid and finishes the run', async () => {
    const model = mockModel((_r, i) =>
      i < 3 ? { toolCalls: [{ name: 'read', arguments: { path: `f${i}` } }] } : 'done',
    );
    const events: AgentEvent[] = [];
    const result = await createAgent({
      provider: model,
      tools: [read],
      hooks: [createCompactionHook({ strategy: orphaning, contextWindow: 8_000, thresholdPercent: 0.1 })],
    }).send('go', { onEvent: (e) => events.push(e) });
    expect(result.text).toBe('done');
    const refused = events.filter(
      (e) => e.type === 'compaction.done' && e.error?.message.includes('broke the transcript'),
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const request of model.calls) expect(findPairingProblem(request.messages)).toBeUndefined();
  });
});

describe('findPairingProblem', () => {
  const call: Message = { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read', arguments: {} }] };
  const result: Message = { role: 'tool', toolCallId: 'a', content: 'x' };
  it('names a result without its call, a call without its result and a second result', () => {
    expect(findPairingProblem([call, result])).toBeUndefined();
    expect(findPairingProblem([result])).toMatch(/no earlier assistant message made/);
    expect(findPairingProblem([call])).toMatch(/has no result/);
    expect(findPairingProblem([call, result, result])).toMatch(/second result/);
  });
});
