import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import { emptyUsage } from '../executor/usage.js';
import { createReportRecorder } from './report-from-events.js';

const runId = 'run_1';
const usage = (inputTokens: number | undefined) => ({ ...emptyUsage(), inputTokens });
const step = (n: number, inputTokens: number | undefined, tool = 'read_file'): AgentEvent[] => [
  {
    type: 'step.done',
    runId,
    step: n,
    finishReason: 'tool-calls',
    usage: usage(inputTokens),
    text: '',
    toolCalls: [{ id: `c${n}`, name: tool, arguments: {} }],
  },
  {
    type: 'tool.done',
    runId,
    step: n,
    toolCallId: `c${n}`,
    toolName: tool,
    result: 'x'.repeat(n * 400),
    isError: false,
  },
];
const compaction = (n: number, before: number, after: number, extra: object = {}): AgentEvent[] => [
  {
    type: 'compaction.start',
    runId,
    step: n,
    strategy: 'two-phase',
    tokensBefore: before,
    contextWindow: 24_000,
    thresholdTokens: 21_600,
    ...extra,
  },
  {
    type: 'compaction.done',
    runId,
    step: n,
    strategy: 'two-phase',
    tokensBefore: before,
    tokensAfter: after,
    prunedToolCallIds: ['c1', 'c2'],
    ...extra,
  },
];
const result = {
  runId,
  text: 'done',
  messages: [],
  usage: emptyUsage(),
  steps: 4,
  finishReason: 'stop',
  status: 'done',
} as AgentResult;

describe('a run recorded from its events', () => {
  it("sizes each step by its model call's input tokens, and marks compactions and recoveries with what they freed", () => {
    const recorder = createReportRecorder({ title: 'run', source: 'recorded', contextWindow: 128_000 });
    const events = [
      ...step(1, 1_000),
      ...step(2, 9_000),
      ...compaction(3, 25_000, 12_000),
      ...step(3, 12_100),
      { ...compaction(4, 26_000, 26_000)[1], unchanged: true } as AgentEvent,
      ...compaction(4, 30_000, 11_000, { trigger: 'overflow' }),
      {
        type: 'recovery.done',
        runId,
        step: 4,
        kind: 'context-overflow',
        action: 'the provider rejected 30000 tokens',
        attempt: 1,
      } as AgentEvent,
      {
        type: 'recovery.done',
        runId,
        step: 4,
        kind: 'output-truncated',
        action: 'asked for the rest',
        attempt: 1,
      } as AgentEvent,
      ...step(4, undefined),
    ];
    for (const e of events) recorder.event(e);
    const data = recorder.report(result, [{ role: 'system', content: 'Review.' }]);
    expect(data.steps).toEqual([
      { step: 1, tokens: 1_000 },
      { step: 2, tokens: 9_000 },
      { step: 3, tokens: 12_100 },
    ]);
    // The window and threshold as the compactions resolved them, not the one the recorder was told.
    expect(data).toMatchObject({ contextWindow: 24_000, thresholdTokens: 21_600 });
    expect(data.marks).toEqual([
      {
        step: 3,
        kind: 'compaction',
        what: 'two-phase',
        tokensBefore: 25_000,
        tokensAfter: 12_000,
        detail: '2 old tool results pruned',
      },
      {
        step: 4,
        kind: 'recovery',
        what: 'context-overflow: two-phase',
        tokensBefore: 30_000,
        tokensAfter: 11_000,
        detail: 'the provider rejected 30000 tokens; 2 old tool results pruned',
      },
      { step: 4, kind: 'recovery', what: 'output-truncated', detail: 'asked for the rest' },
    ]);
    expect(data.notes).toEqual([
      '1 compaction attempt(s) found nothing they may change and are not marked.',
      '1 step(s) reported no input tokens and are not drawn.',
    ]);
    expect(data.byRole.map((r) => [r.name, r.messages, r.keptMessages])).toEqual([
      ['system', 1, 0],
      ['assistant', 4, 0],
      ['tool', 4, 0],
    ]);
    expect(data.largest.map((r) => [r.toolCallId, r.step, r.chars])).toEqual([
      ['c4', 4, 1_600],
      ['c3', 3, 1_200],
      ['c2', 2, 800],
      ['c1', 1, 400],
    ]);
  });
});
