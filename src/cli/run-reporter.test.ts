import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import { colours } from './colour.js';
import { reportLine } from './report-command.js';
import { createReportRecorder } from './report-from-events.js';
import { createRunReporter } from './run-reporter.js';

const usage = (inputTokens: number) => ({
  inputTokens,
  outputTokens: 10,
  totalTokens: inputTokens + 10,
  cachedInputTokens: undefined,
});
const step = (n: number, inputTokens: number): AgentEvent =>
  ({
    type: 'step.done',
    runId: 'r',
    step: n,
    finishReason: 'tool-calls',
    usage: usage(inputTokens),
    text: '',
    toolCalls: [{ id: `c${n}`, name: 'read_file', arguments: {} }],
  }) as AgentEvent;

function story(events: AgentEvent[], colour = false) {
  const lines: string[] = [];
  const reporter = createRunReporter({ contextWindow: 10_000, colours: colours(colour), out: (l) => lines.push(l) });
  for (const event of events) reporter.event(event);
  return { lines, reporter };
}

describe('the main job report', () => {
  const events: AgentEvent[] = [
    step(1, 4_000),
    {
      type: 'compaction.start',
      runId: 'r',
      step: 2,
      strategy: 'two-phase',
      tokensBefore: 9_500,
      contextWindow: 10_000,
      thresholdTokens: 9_000,
    },
    {
      type: 'compaction.done',
      runId: 'r',
      step: 2,
      strategy: 'two-phase',
      appliedStrategy: 'prune-tool-results',
      tokensBefore: 9_500,
      tokensAfter: 3_500,
      prunedToolCallIds: ['c1'],
    },
    {
      type: 'recovery.done',
      runId: 'r',
      step: 2,
      kind: 'oversized-results',
      action: 'cut 1 result(s) of the newest turn',
      attempt: 1,
    },
    step(2, 3_500),
  ];

  it('shows each step against the window, each compaction with the strategy that ran, and each recovery', () => {
    const { lines } = story(events);
    expect(lines[0]).toMatch(/^step\s+1 \[█+░+\|░+\]\s+4,000 \/ 10,000 \( 40%\) {2}read_file$/);
    expect(lines[1]).toBe(
      '  ⤷ compaction before step 2 (two-phase, ran prune-tool-results): 9,500 -> 3,500 tokens, 1 old tool results pruned',
    );
    expect(lines[2]).toBe('  ↻ recovery at step 2 (oversized-results): cut 1 result(s) of the newest turn');
    expect(lines.join('\n')).not.toContain('\u001b[');
  });

  it('colours the story only when asked', () => {
    expect(story(events, true).lines.join('\n')).toContain('\u001b[35m');
  });

  it('sums the tokens sent with compaction and without it, and counts summarizer calls', () => {
    const { reporter } = story(events);
    expect(reporter.tally).toMatchObject({
      steps: 2,
      compactions: 1,
      recoveries: 1,
      tokensSent: 7_500,
      tokensWithoutCompaction: 13_500,
    });
    const call = (purpose: 'generate' | 'compaction') => ({
      provider: 'p',
      model: 'm',
      purpose,
      usage: usage(1),
      step: 1,
      costUsd: undefined,
    });
    const result = {
      messages: [],
      text: 'done',
      usage: { costUsd: 0.0123, modelCalls: [call('generate'), call('compaction')] },
    } as unknown as AgentResult;
    const summary = reporter.summary(result).join('\n');
    expect(summary).toContain('tokens sent         7,500 with compaction; about 13,500 without (44% saved)');
    expect(summary).toContain('compactions         1, with 1 summarizer call(s)');
    expect(summary).toContain('cost                $0.0123');
  });
});

describe('the run summary and the report line', () => {
  // The events of `npm start` around a recovery, as the scripted run emits them (see the
  // output quoted in docs/cli.md): a compaction, a compaction that found nothing, and an
  // overflow recovery carried by a compaction of its own at one step.
  const events: AgentEvent[] = [
    step(1, 4_000),
    {
      type: 'compaction.done',
      runId: 'r',
      step: 2,
      strategy: 'two-phase',
      tokensBefore: 9_500,
      tokensAfter: 3_500,
      prunedToolCallIds: ['c1'],
    },
    step(2, 3_500),
    {
      type: 'compaction.done',
      runId: 'r',
      step: 3,
      strategy: 'two-phase',
      tokensBefore: 9_600,
      tokensAfter: 9_600,
      prunedToolCallIds: [],
      unchanged: true,
    },
    {
      type: 'compaction.done',
      runId: 'r',
      step: 3,
      strategy: 'overflow-recovery',
      appliedStrategy: 'fold-turns',
      trigger: 'overflow',
      tokensBefore: 12_000,
      tokensAfter: 8_000,
      prunedToolCallIds: [],
    },
    {
      type: 'recovery.done',
      runId: 'r',
      step: 3,
      kind: 'oversized-results',
      action: 'compacted the request from 12000 to 8000 tokens',
      attempt: 1,
    },
    step(3, 8_000),
  ];

  it('count each compaction and each recovery once, as the same things', () => {
    const { reporter } = story(events);
    const recorder = createReportRecorder({ title: 'run', source: 'events', contextWindow: 10_000 });
    for (const event of events) recorder.event(event);
    const result = { messages: [], text: 'done', usage: { modelCalls: [] } } as unknown as AgentResult;
    const line = reportLine(recorder.report(result, []));
    expect(line).toBe('3 steps, 1 compaction, 1 recovery');
    const summary = reporter.summary(result).join('\n');
    // The same two numbers: the overflow compaction is the recovery's, the one that changed nothing is none.
    expect(summary).toMatch(/^ {2}compactions {9}1, with 0 summarizer call\(s\)$/m);
    expect(summary).toMatch(/^ {2}recoveries {10}1$/m);
    expect(reporter.tally).toMatchObject({ compactions: 1, recoveries: 1 });
  });
});
