import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from '../compaction/sizes.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { Message } from '../messages/types.js';
import { tokenProfile } from '../models/estimate-tokens.js';
import type { ReportData, ReportMark, ReportStep } from './report-data.js';
import { reportMakeup } from './report-makeup.js';

/** What a compaction did, in words. */
function compactionDetail(event: CompactionDoneEvent): string {
  const parts = [`${event.prunedToolCallIds.length} old tool results pruned`];
  if (event.summary === true) parts.push('old turns summarized');
  if (event.error !== undefined) parts.push(`kept ${event.appliedStrategy ?? event.strategy}: ${event.error.message}`);
  return parts.join(', ');
}

/**
 * The compactions and recoveries of a run, from its events as they come, each counted once:
 * a compaction that found nothing it may change is no mark (it is counted in `unchanged`); a
 * compaction the overflow recovery ran is the recovery's, joined to the recovery.done that
 * follows it at that step; any other recovery is one of its own. The run's summary and its
 * report both count with it. `stepOf` gives the step of an event that names none.
 */
export function createRunMarks(stepOf: () => number) {
  const marks: ReportMark[] = [];
  /** Overflow compactions whose recovery.done has not come yet. */
  const overflow = new Set<ReportMark>();
  let unchanged = 0;
  return {
    marks,
    /** Compaction attempts that found nothing they may change. */
    get unchanged() {
      return unchanged;
    },
    /** Takes a compaction.done or recovery.done; any other event is ignored. */
    event(e: AgentEvent): void {
      if (e.type === 'compaction.done') {
        if (e.unchanged === true) {
          unchanged++;
          return;
        }
        const how = e.appliedStrategy === undefined ? e.strategy : `${e.strategy}, ran ${e.appliedStrategy}`;
        const mark: ReportMark = {
          step: e.step ?? stepOf(),
          kind: e.trigger === 'overflow' ? 'recovery' : 'compaction',
          what: how,
          tokensBefore: e.tokensBefore,
          tokensAfter: e.tokensAfter,
          detail: compactionDetail(e),
        };
        marks.push(mark);
        if (e.trigger === 'overflow') overflow.add(mark);
      } else if (e.type === 'recovery.done') {
        // A recovery that compacted is told once, with the sizes of the compaction that carried it.
        const last = marks.at(-1);
        if (last !== undefined && overflow.has(last) && last.step === e.step) {
          overflow.delete(last);
          last.what = `${e.kind}: ${last.what}`;
          last.detail = `${e.action}; ${last.detail ?? ''}`;
        } else marks.push({ step: e.step, kind: 'recovery', what: e.kind, detail: e.action });
      }
    },
  };
}

/**
 * Builds a run's report from its events as they come (`event()`), then from its result
 * (`report()`): each step sized by the input tokens its model call reported, each compaction
 * with the sizes it reported, each recovery with what it did (joined to the compaction that
 * carried it), the window and threshold as the compactions resolved them.
 */
export function createReportRecorder(options: {
  title: string;
  source: string;
  contextWindow: number;
  model?: string;
}) {
  let contextWindow = options.contextWindow;
  let threshold = thresholdTokens(contextWindow, DEFAULT_THRESHOLD_PERCENT);
  const steps: ReportStep[] = [];
  const produced: Message[] = [];
  const stepOf = new Map<string, number>();
  const run = createRunMarks(() => steps.length + 1);
  let unsized = 0;

  function event(e: AgentEvent): void {
    run.event(e);
    if (e.type === 'compaction.start') {
      threshold = e.contextWindow === contextWindow ? Math.max(threshold, e.thresholdTokens) : e.thresholdTokens;
      contextWindow = e.contextWindow;
    } else if (e.type === 'step.done') {
      const message: Message = {
        role: 'assistant',
        content: e.text,
        ...(e.toolCalls.length === 0 ? {} : { toolCalls: e.toolCalls }),
      };
      produced.push(message);
      for (const call of e.toolCalls) stepOf.set(call.id, e.step);
      if (e.usage.inputTokens === undefined) unsized++;
      else steps.push({ step: e.step, tokens: e.usage.inputTokens });
    } else if (e.type === 'tool.done') {
      produced.push({ role: 'tool', toolCallId: e.toolCallId, toolName: e.toolName, content: e.result });
    }
  }

  /** The report, once the run is over; `leading` are the messages the run started from (system prompt, task). */
  function report(result: AgentResult, leading: readonly Message[]): ReportData {
    const notes: string[] = [];
    if (run.unchanged > 0)
      notes.push(`${run.unchanged} compaction attempt(s) found nothing they may change and are not marked.`);
    if (unsized > 0) notes.push(`${unsized} step(s) reported no input tokens and are not drawn.`);
    const profile = tokenProfile(options.model);
    return {
      title: options.title,
      source: options.source,
      sizes: 'the input tokens each model call reported',
      ...(options.model === undefined ? {} : { model: options.model }),
      contextWindow,
      windowFrom: 'the run’s',
      thresholdTokens: threshold,
      steps,
      marks: run.marks,
      ...reportMakeup([...leading, ...produced], result.messages, profile, stepOf),
      notes,
    };
  }

  return { event, report };
}
