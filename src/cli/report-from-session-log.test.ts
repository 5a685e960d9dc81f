import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { Message } from '../messages/types.js';
import { savedSession } from '../test-support/report-runs.js';
import type { ReportData } from './report-data.js';
import { sessionLogReport } from './report-from-session-log.js';
import { readTranscriptFile } from './transcript-file.js';

type Turned = { turn: number; event: AgentEvent };

/** The step of an event counted through the session's turns, as the report numbers them. */
function throughStep(events: readonly Turned[], { turn, event }: Turned): number {
  const earlier = events.filter((e) => e.turn < turn && e.event.type === 'step.done').length;
  return earlier + ((event as { step?: number }).step ?? 0);
}

const WINDOW = 10_000;
let events: Turned[];
let data: ReportData;
let transcript: Message[];
beforeAll(async () => {
  // A real session: 2 turns of 40 steps on a small window, saved by FileSessionStore, compacting as it goes.
  const run = await savedSession(await mkdtemp(join(tmpdir(), 'lousho-report-session-')), 2, 40, WINDOW);
  events = run.events;
  data = sessionLogReport('reader.jsonl', await readFile(run.log, 'utf8'), { model: 'gpt-4o', contextWindow: WINDOW });
  transcript = (await readTranscriptFile(run.log)).messages;
}, 120_000);

describe("a FileSessionStore log's report", () => {
  it('has a step per model reply, numbered through the turns and labelled with its turn', () => {
    const replies = events.filter((e) => e.event.type === 'step.done');
    expect(replies.length).toBe(82);
    expect(data.steps.map((s) => s.step)).toEqual(replies.map((_, i) => i + 1));
    expect(data.steps.map((s) => s.label)).toEqual(
      replies.map(({ turn, event }) => `turn ${turn}, step ${(event as { step: number }).step}`),
    );
  });

  it('marks every compaction at the step it came before, with the sizes the run saw on either side', () => {
    const done = events.filter(
      (e): e is Turned & { event: CompactionDoneEvent } =>
        e.event.type === 'compaction.done' && e.event.tokensAfter < e.event.tokensBefore,
    );
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(data.marks.map((m) => [m.kind, m.step])).toEqual(done.map((e) => ['compaction', throughStep(events, e)]));
    data.marks.forEach((mark, i) => {
      const { event } = done[i] as Turned & { event: CompactionDoneEvent };
      // The run's sizes are whole requests (the tool definitions and framing too); the log's are its messages.
      const fixed = event.tokensBefore - (mark.tokensBefore as number);
      expect(fixed).toBeGreaterThan(0);
      expect(fixed).toBeLessThan(200);
      expect(Math.abs(event.tokensAfter - (mark.tokensAfter as number) - fixed)).toBeLessThan(20);
      expect(mark.detail).toMatch(
        event.summary ? /old turns summarized/ : new RegExp(`^${event.prunedToolCallIds.length} tool results pruned`),
      );
    });
  });

  it('sizes each step as the request the model got, which the compaction before it brought down', () => {
    for (const mark of data.marks) {
      const step = data.steps[mark.step - 1];
      expect(step?.tokens).toBeLessThanOrEqual(mark.tokensAfter as number);
      expect(step?.tokens).toBeGreaterThan((mark.tokensAfter as number) - 100);
    }
  });

  it('tells what the run made and what its transcript holds at the end, by role and by tool', () => {
    const results = events.filter((e) => e.event.type === 'tool.done').length;
    expect(data.byRole.map((r) => r.name)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(data.byRole.find((r) => r.name === 'tool')?.messages).toBe(results);
    expect(data.byRole.find((r) => r.name === 'assistant')?.messages).toBe(82);
    expect(data.byTool.map((r) => r.name)).toEqual(['read_file', 'mcp__github__search_issues']);
    // Compaction left fewer tokens of results at the end than the run made.
    const read = data.byTool[0];
    expect(read?.keptTokens).toBeLessThan(read?.tokens as number);
    expect(data.totals.keptMessages).toBe(transcript.length);
    expect(data.largest[0]).toMatchObject({ tool: 'read_file', chars: 9_000 });
  });
});

it('tells a compaction that summarized old turns', () => {
  const summarized = events.filter((e) => e.event.type === 'compaction.done' && e.event.summary === true);
  expect(summarized.length).toBeGreaterThan(0);
  const marks = data.marks.filter((m) => /old turns summarized/.test(m.detail ?? ''));
  expect(marks.map((m) => m.step)).toEqual(summarized.map((e) => throughStep(events, e)));
});
