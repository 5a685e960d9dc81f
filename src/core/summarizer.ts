import type { ReportedModelCall } from '../contracts/model-call.js';
import { checkOptions } from '../errors/check-options.js';
import { configError, LoushoError } from '../errors/lousho-error.js';

/** What a summarizer is given besides the messages. */
export interface SummarizeContext<M> {
  /** Renders one message as text. */
  toText: (message: M) => string;
  /** The caller's abort signal; pass it to any model call. */
  abortSignal?: AbortSignal | undefined;
  /** Called after each model call the summarizer makes. */
  onModelCall?: ((call: ReportedModelCall) => void) | undefined;
}

/** Turns the messages being compacted into the text of one summary. */
export interface Summarizer<M = unknown> {
  /** Resolves to the summary text; an empty one counts as a failure. */
  summarize(messages: readonly M[], context: SummarizeContext<M>): Promise<string>;
}

/** True when `value` has the shape of a {@link Summarizer}. */
export function isSummarizer(value: unknown): value is Summarizer {
  return typeof value === 'object' && value !== null && typeof (value as Summarizer).summarize === 'function';
}

/** The default length of a TruncatingSummarizer's summary. */
export const DEFAULT_TRUNCATE_MAX_CHARS = 500;

/**
 * The default summarizer: concatenates the messages and cuts the text to `maxChars`
 * (default 500). No model call: free and instant, and lossy — anything past the cut is
 * gone for good.
 */
export class TruncatingSummarizer<M = unknown> implements Summarizer<M> {
  /** The most characters a summary keeps (default 500). */
  readonly maxChars: number;

  constructor(options: { maxChars?: number } = {}) {
    checkOptions<{ maxChars?: number }>(options, 'new TruncatingSummarizer()', ['maxChars']);
    const maxChars = options.maxChars ?? DEFAULT_TRUNCATE_MAX_CHARS;
    if (!Number.isInteger(maxChars) || maxChars <= 0)
      throw configError(`maxChars must be a positive whole number, got ${maxChars}.`);
    this.maxChars = maxChars;
  }

  /** The messages' text, one per line, cut to maxChars. */
  async summarize(messages: readonly M[], context: SummarizeContext<M>): Promise<string> {
    const text = messages.map((m) => context.toText(m)).join('\n');
    return text.length > this.maxChars ? text.slice(0, this.maxChars) : text;
  }
}

/**
 * The text of a summary: a string with something in it, trimmed. An empty, whitespace-only
 * or non-string summary is a failure (LOUSHO_STRATEGY_FAILED naming `who`), never a
 * `[Conversation summary]` with nothing or `null` under it.
 */
export function summaryText(value: unknown, who: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  const got = value === null ? 'null' : typeof value === 'string' ? 'an empty string' : typeof value;
  throw new LoushoError(
    'LOUSHO_STRATEGY_FAILED',
    `${who} returned no summary text (got ${got}). A summarizer resolves to the summary as a non-empty string.`,
    { details: { summarizer: who } },
  );
}
