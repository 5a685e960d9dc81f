import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';

/** The usage a provider reported for the last request a log records, in tokens (absent when it did not say). */
export interface ReportedUsage {
  /** Every input token of the request, those read from and written to the cache included (Anthropic reports them apart; they are added here). */
  inputTokens?: number;
  /** Output tokens, reasoning included. */
  outputTokens?: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache. */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning. */
  reasoningTokens?: number;
}

/** What a reader of an agent's log found in it, besides the transcript. */
export interface LogReading {
  /** The transcript, as our messages. */
  messages: Message[];
  /** The model the log names (the newest one, when it names several). */
  model?: string;
  /** Tool definitions the log holds. */
  tools?: ToolDefinition[];
  /** The usage the provider reported for the last request the log records. */
  reported?: ReportedUsage;
}

/** A number field, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A usage with only the fields that are known; undefined when none is. */
export function reportedUsage(usage: { [K in keyof ReportedUsage]: number | undefined }): ReportedUsage | undefined {
  const known = Object.entries(usage).filter(([, v]) => typeof v === 'number');
  return known.length === 0 ? undefined : (Object.fromEntries(known) as ReportedUsage);
}

/** `{ model }`, `{ reported }`, ... for spreading, without the fields that are undefined. */
export function logExtras(
  extras: {
    [K in keyof Omit<LogReading, 'messages'>]: LogReading[K] | undefined;
  },
): Omit<LogReading, 'messages'> {
  return Object.fromEntries(Object.entries(extras).filter(([, v]) => v !== undefined)) as Omit<LogReading, 'messages'>;
}

/** The sum of the numbers that are known, or undefined when none is. */
export function sumOf(...values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? undefined : known.reduce((a, b) => a + b, 0);
}
