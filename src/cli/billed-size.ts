import { isRecord } from '../converters/invalid-input.js';
import { numberOf, type ReportedUsage } from '../converters/log-reading.js';
import type { Message } from '../messages/types.js';
import type { RequestSizes } from './transcript-count.js';
import type { TranscriptSource } from './transcript-file.js';

/** Past this share apart, the estimate and the provider's figure are said to differ, and why. */
export const BILLED_GAP_SHARE = 0.1;

/** A request whose input the provider reported: the file's messages before `index`. */
export interface ReportedRequest {
  /** The request is the file's messages 0..index-1 (an assistant message's index: the request that produced it). */
  index: number;
  /** The input tokens the provider reported for it, cache reads and writes included. */
  inputTokens: number;
}

/** The input tokens of the `metadata.reportedUsage` a log reader put on an assistant message, if any. */
function reportedInput(message: Message): number | undefined {
  const usage = message.role === 'assistant' ? message.metadata?.reportedUsage : undefined;
  return isRecord(usage) ? numberOf((usage as ReportedUsage).inputTokens) : undefined;
}

/**
 * The requests of a transcript file whose input the provider reported: each assistant message
 * that carries `metadata.reportedUsage` (what a log reader found for the request that produced
 * it). The usage the file records as a whole is its last reply's request in a log, and the
 * file's own request in a request body (whose reply is not among its messages); it stands for
 * that request when no message carries its own.
 */
export function reportedRequests(file: {
  messages: readonly Message[];
  reported?: ReportedUsage | undefined;
  source?: TranscriptSource | undefined;
}): ReportedRequest[] {
  const out: ReportedRequest[] = [];
  for (const [index, message] of file.messages.entries()) {
    const inputTokens = reportedInput(message);
    if (inputTokens !== undefined) out.push({ index, inputTokens });
  }
  // A reader that tells each reply's usage has told the last one's too (a closing reply may have none).
  const whole = file.reported?.inputTokens;
  if (out.length > 0 || whole === undefined || whole <= 0) return out;
  const body = file.source !== undefined && file.source.log === undefined && file.source.within === undefined;
  const index = body ? file.messages.length : file.messages.findLastIndex((m) => m.role === 'assistant');
  return index >= 0 ? [{ index, inputTokens: whole }] : [];
}

/** What the provider billed beside the estimate, at the newest request the file reports. */
export interface BilledSize {
  /** The request: the file's messages before this index. */
  index: number;
  /** The input tokens the provider reported for it. */
  reported: number;
  /** The commands' count of the same request. */
  estimated: number;
  /** reported - estimated: what the provider billed beyond what the file holds (negative when it billed less). */
  beyond: number;
  /** What the request held that a log leaves out, which the provider counted: 'the system prompt', 'the tool definitions' (none for a request body, which is the whole request). */
  lacks: string[];
}

/** The newest reported request beside its estimate, or undefined when the file reports none. */
export function billedSize(
  file: { messages: readonly Message[]; tools?: readonly unknown[] | undefined },
  requests: readonly ReportedRequest[],
  sizes: RequestSizes,
): BilledSize | undefined {
  const newest = requests.reduce<ReportedRequest | undefined>(
    (a, r) => (a === undefined || r.index > a.index ? r : a),
    undefined,
  );
  if (newest === undefined) return undefined;
  const estimated = sizes.before[newest.index] as number;
  // A request body is the whole request; a log's request held what the log leaves out.
  const lacks: string[] = [];
  const log = newest.index < file.messages.length;
  if (log && !file.messages.some((m) => m.role === 'system')) lacks.push('the system prompt');
  if (log && (file.tools === undefined || file.tools.length === 0)) lacks.push('the tool definitions');
  return {
    index: newest.index,
    reported: newest.inputTokens,
    estimated,
    beyond: newest.inputTokens - estimated,
    lacks,
  };
}

/** What inspect's headline and report's summary call the newest request whose input the provider reported. */
export const NEWEST_BILLED = 'newest billed request';

/** That request's figure as both give it: '131,573 (estimated 115,343)', what the provider reported and the estimate of it. */
export function newestBilledText(billed: Pick<BilledSize, 'reported' | 'estimated'>): string {
  return `${billed.reported.toLocaleString('en-US')} (estimated ${billed.estimated.toLocaleString('en-US')})`;
}

/**
 * How far the estimate is from the bill, as inspect and report say it: 'exact', '75.8% under'
 * (the estimate is that share of the bill below it) or '230.0% over' (above it).
 */
export function estimateOff(billed: Pick<BilledSize, 'reported' | 'estimated'>): string {
  const diff = billed.estimated - billed.reported;
  if (diff === 0) return 'exact';
  const share = billed.reported === 0 ? '100.0' : ((Math.abs(diff) / billed.reported) * 100).toFixed(1);
  return `${share}% ${diff < 0 ? 'under' : 'over'}`;
}

/** Whether the estimate and the bill differ by more than {@link BILLED_GAP_SHARE} of the bill. */
export function billedDiffers(billed: Pick<BilledSize, 'reported' | 'estimated'>): boolean {
  return billed.reported > 0 && Math.abs(billed.reported - billed.estimated) > BILLED_GAP_SHARE * billed.reported;
}

/** Why the provider billed more (or less) than the estimate, in words: what the file does not hold, first. */
export function billedWhy(billed: Pick<BilledSize, 'reported' | 'estimated' | 'lacks'>): string {
  if (billed.reported < billed.estimated) return 'the provider billed less than the file holds by this count';
  if (billed.lacks.length === 0) return 'the estimate is under what the provider counted for what the file holds';
  return `the file holds no ${billed.lacks.map((l) => l.replace(/^the /, '')).join(' and no ')}, which the provider counted`;
}
