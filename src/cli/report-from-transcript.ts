import type { Message } from '../messages/types.js';
import { messageTokens, requestFixedTokens, tokenProfile } from '../models/estimate-tokens.js';
import type { ReportData, ReportMark, ReportStep } from './report-data.js';
import { reportMakeup } from './report-makeup.js';
import { type ReportWindowOptions, reportWindow } from './report-window.js';
import { tokenizerLabel } from './tokenizer-label.js';
import type { TranscriptFile } from './transcript-file.js';

/** Whether a message holds a provider-side compaction, which stands for everything before it. */
function isProviderCompaction(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    Array.isArray(message.content) &&
    message.content.some((p) => p.type === 'compaction')
  );
}

/**
 * A transcript's report: its steps are the assistant turns, each sized as the request that
 * produced it (the messages before it, the tool definitions the file holds and the request's
 * framing), estimated with the model's tokenizer. A provider-side compaction in the
 * transcript (an Anthropic compaction block, a Responses compaction item) is marked where it
 * happened, and the requests after it count only what follows it, as the provider reads them.
 */
export function transcriptReport(
  title: string,
  file: Pick<TranscriptFile, 'messages' | 'tools' | 'reported'>,
  source: string,
  options: ReportWindowOptions,
): ReportData {
  const profile = tokenProfile(options.model);
  const fixed = requestFixedTokens(file.tools === undefined ? {} : { tools: file.tools }, profile);
  const steps: ReportStep[] = [];
  const marks: ReportMark[] = [];
  const stepOf = new Map<string, number>();
  let sum = 0; // the messages read so far, as the next request sends them
  let before = 0; // the same, had the latest provider-side compaction not happened
  let compactedAt: number | undefined;
  for (const message of file.messages) {
    if (message.role === 'assistant') {
      const step = steps.length + 1;
      if (compactedAt !== undefined) {
        marks.push({
          step,
          kind: 'compaction',
          what: 'provider-side compaction',
          tokensBefore: fixed + before,
          tokensAfter: fixed + sum,
          detail: `the provider compacted the transcript at step ${compactedAt}; what came before is not sent again`,
        });
        compactedAt = undefined;
      }
      steps.push({ step, tokens: fixed + sum });
      for (const call of message.toolCalls ?? []) stepOf.set(call.id, step);
    }
    const tokens = messageTokens(message, profile);
    if (isProviderCompaction(message)) {
      before = sum;
      sum = 0;
      compactedAt = steps.length;
    }
    sum += tokens;
    before += tokens;
  }
  const label = tokenizerLabel(options.model);
  const notes: string[] = [];
  if (file.reported?.inputTokens !== undefined && steps.length > 0) {
    const last = steps[steps.length - 1] as ReportStep;
    notes.push(
      `The file records what the provider reported for its last request: ${file.reported.inputTokens.toLocaleString('en-US')} input tokens (estimated here: ${last.tokens.toLocaleString('en-US')}).`,
    );
  }
  return {
    title,
    source,
    sizes: `estimated with the ${label.text}`,
    ...reportWindow(options),
    steps,
    marks,
    ...reportMakeup(file.messages, undefined, profile, stepOf),
    notes,
  };
}
