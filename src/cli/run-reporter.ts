import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from '../compaction/sizes.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { Colours } from './colour.js';
import { createRunMarks } from './report-from-events.js';
import { windowBar } from './token-chart.js';

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const BAR = 30;

/** What the main job's report has counted so far. */
export interface RunTally {
  steps: number;
  /** Compactions, as the report counts them: one that found nothing to change is none, and one a recovery ran is the recovery's. */
  compactions: number;
  /** Recoveries, each once (with the compaction that carried it, if any). */
  recoveries: number;
  /** The requests' sizes as sent, summed. */
  tokensSent: number;
  /** Each request's size plus what compactions had removed by then, summed: the run without compaction. */
  tokensWithoutCompaction: number;
}

function toolsOf(calls: readonly { name: string }[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ');
}

/**
 * Turns a run's events into the main job's story: each step's request size against the
 * window and the threshold, each compaction with the strategy that ran, each recovery, and
 * a closing summary. `contextWindow` is the window the run is expected to use; a
 * compaction's own report of the window replaces it.
 */
export function createRunReporter(options: { contextWindow: number; colours: Colours; out: (line: string) => void }) {
  const { colours: c, out } = options;
  let window = options.contextWindow;
  let threshold = thresholdTokens(window, DEFAULT_THRESHOLD_PERCENT);
  let removed = 0;
  const tally: RunTally = { steps: 0, compactions: 0, recoveries: 0, tokensSent: 0, tokensWithoutCompaction: 0 };
  const run = createRunMarks(() => tally.steps + 1);

  function compaction(event: CompactionDoneEvent): void {
    removed += Math.max(0, event.tokensBefore - event.tokensAfter);
    const ran = event.appliedStrategy ?? event.strategy;
    const how = event.appliedStrategy === undefined ? ran : `${event.strategy}, ran ${ran}`;
    const what = event.unchanged
      ? 'nothing it may change (the rest is the protected newest turns)'
      : `${n(event.tokensBefore)} -> ${n(event.tokensAfter)} tokens, ${event.prunedToolCallIds.length} old tool results pruned${event.summary ? ', old turns summarized' : ''}`;
    out(c.magenta(`  ⤷ compaction before step ${event.step ?? '?'} (${how}): ${what}`));
    // A summary that did not get under the threshold is not a failure: the pruned result was kept instead.
    if (event.error !== undefined) out(c.dim(`    kept ${ran}: ${event.error.message}`));
  }

  return {
    tally,
    /** Reports one event. */
    event(event: AgentEvent): void {
      run.event(event);
      tally.compactions = run.marks.filter((m) => m.kind === 'compaction').length;
      tally.recoveries = run.marks.length - tally.compactions;
      if (event.type === 'compaction.start') {
        // A recovery compacts to a tighter target than the threshold; the bars keep the run's threshold.
        threshold = event.contextWindow === window ? Math.max(threshold, event.thresholdTokens) : event.thresholdTokens;
        window = event.contextWindow;
      } else if (event.type === 'compaction.done') compaction(event);
      else if (event.type === 'recovery.done') {
        out(c.yellow(`  ↻ recovery at step ${event.step} (${event.kind}): ${event.action}`));
      } else if (event.type === 'step.done') {
        tally.steps++;
        const size = event.usage.inputTokens ?? 0;
        tally.tokensSent += size;
        tally.tokensWithoutCompaction += size + removed;
        const share = `${n(size).padStart(7)} / ${n(window)} (${((size / window) * 100).toFixed(0).padStart(3)}%)`;
        const colour = size > threshold ? c.red : size > threshold * 0.75 ? c.yellow : c.green;
        const tools = event.toolCalls.length === 0 ? c.bold('answer') : toolsOf(event.toolCalls);
        out(
          `step ${String(event.step).padStart(3)} ${colour(windowBar(size, window, threshold, BAR))} ${share}  ${c.dim(tools)}`,
        );
      }
    },
    /** The closing summary. */
    summary(result: AgentResult): string[] {
      const { usage } = result;
      const summarizerCalls = usage.modelCalls.filter((call) => call.purpose === 'compaction').length;
      const saved = tally.tokensWithoutCompaction - tally.tokensSent;
      const lines = [
        c.bold('Summary'),
        `  steps               ${tally.steps} (${result.messages.length} messages at the end)`,
        `  tokens sent         ${n(tally.tokensSent)} with compaction; about ${n(tally.tokensWithoutCompaction)} without (${saved > 0 ? `${((saved / tally.tokensWithoutCompaction) * 100).toFixed(0)}% saved` : 'no saving'})`,
        `  compactions         ${tally.compactions}, with ${summarizerCalls} summarizer call(s)`,
        `  recoveries          ${tally.recoveries}`,
        `  window / threshold  ${n(window)} / ${n(threshold)} tokens`,
        `  cost                ${usage.costUsd === undefined ? 'unknown (no price for this model)' : `$${usage.costUsd.toFixed(4)}`}`,
      ];
      return lines;
    },
  };
}
