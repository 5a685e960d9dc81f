import { tokenProfile } from '../models/estimate-tokens.js';
import { holdsProviderCompaction } from '../models/provider-billing.js';
import { billedDiffers, billedSize, billedWhy, estimateOff, reportedRequests } from './billed-size.js';
import type { ReportData, ReportMark, ReportStep } from './report-data.js';
import { reportMakeup } from './report-makeup.js';
import { type ReportWindowOptions, reportWindow } from './report-window.js';
import { tokenizerLabel } from './tokenizer-label.js';
import { requestSizes } from './transcript-count.js';
import type { TranscriptFile } from './transcript-file.js';

const n = (value: number) => value.toLocaleString('en-US');

/**
 * A transcript's report: its steps are the assistant turns, each sized as the request that
 * produced it, by the count inspect and compact make (requestSizes(): the messages before it,
 * the tool definitions the file holds, the request's framing, what a provider's compaction
 * superseded left out), estimated with the model's tokenizer. Where the log records what the
 * provider reported for a step's request (an assistant message's `metadata.reportedUsage`, or
 * the file's usage for its last reply), the step carries it too, and a note says what the file
 * lacks when the two differ by more than a tenth. A provider-side compaction in the transcript
 * (an Anthropic compaction block, a Responses compaction item) is marked where it happened.
 */
export function transcriptReport(
  title: string,
  file: Pick<TranscriptFile, 'messages'> & Partial<Pick<TranscriptFile, 'tools' | 'reported' | 'source'>>,
  source: string,
  options: ReportWindowOptions,
): ReportData {
  const sizes = requestSizes(file, options.model);
  const reported = new Map(reportedRequests(file).map((r) => [r.index, r.inputTokens]));
  const steps: ReportStep[] = [];
  const marks: ReportMark[] = [];
  const stepOf = new Map<string, number>();
  const compactions = new Set(sizes.billed.filter((b) => holdsProviderCompaction(b.message)).map((b) => b.from));
  let compactedAt: number | undefined;
  for (const [i, message] of file.messages.entries()) {
    if (message.role !== 'assistant') {
      if (compactions.has(i)) compactedAt = steps.length;
      continue;
    }
    const step = steps.length + 1;
    const tokens = sizes.before[i] as number;
    if (compactedAt !== undefined) {
      marks.push({
        step,
        kind: 'compaction',
        what: 'provider-side compaction',
        tokensBefore: sizes.uncompacted[i] as number,
        tokensAfter: tokens,
        detail: `the provider compacted the transcript at step ${compactedAt}; what came before is not sent again`,
      });
      compactedAt = undefined;
    }
    const billed = reported.get(i);
    steps.push({ step, tokens, ...(billed === undefined ? {} : { reported: billed }) });
    for (const call of message.toolCalls ?? []) stepOf.set(call.id, step);
    if (compactions.has(i)) compactedAt = step; // the requests after it are sized from it on
  }
  const label = tokenizerLabel(options.model);
  const notes: string[] = [];
  const newest = billedSize(
    file,
    [...reported].map(([index, inputTokens]) => ({ index, inputTokens })),
    sizes,
  );
  const drawn = steps.filter((s) => s.reported !== undefined).length;
  if (newest !== undefined && newest.index === file.messages.length)
    notes.push(
      `The file records what the provider reported for its own request: ${n(newest.reported)} input tokens (estimated here: ${n(newest.estimated)}).`,
    );
  if (newest !== undefined && drawn > 0) {
    const why = billedDiffers(newest) ? ` (${estimateOff(newest)}): ${billedWhy(newest)}` : '';
    notes.push(
      `The provider reported the input of ${drawn} of the ${steps.length} requests, drawn beside the estimate; at the newest it billed ${n(newest.reported)} tokens where ${n(newest.estimated)} were estimated${why}.`,
    );
  }
  const makeup = reportMakeup(
    sizes.billed.map((b) => b.message),
    undefined,
    tokenProfile(options.model),
    stepOf,
  );
  const newestStep = steps.findLast((s) => s.reported !== undefined);
  return {
    title,
    source,
    ...(newest === undefined
      ? {}
      : {
          newestBilled: {
            reported: newest.reported,
            estimated: newest.estimated,
            ...(newest.index < file.messages.length && newestStep !== undefined ? { step: newestStep.step } : {}),
          },
        }),
    sizes: `estimated with the ${label.text}${drawn > 0 ? '; beside them, the input tokens the provider reported' : ''}`,
    ...reportWindow(options),
    steps,
    marks,
    ...makeup,
    transcriptTokens: sizes.before.at(-1) as number,
    totals: { messages: file.messages.length, tokens: sizes.before.at(-1) as number },
    notes,
  };
}
