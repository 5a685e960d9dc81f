import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';
import { isRecord } from './invalid-input.js';

/**
 * The usage a provider reported for one request, in tokens (a field is absent when the log
 * does not say it). A log reader sets it on the assistant message that request's reply became,
 * as `metadata.reportedUsage` (application data, never sent to a model).
 */
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
  /** The transcript, as our messages; each assistant message whose request the log reports carries `metadata.reportedUsage`. */
  messages: Message[];
  /** The model the log names (the newest one, when it names several). */
  model?: string;
  /** Tool definitions the log holds. */
  tools?: ToolDefinition[];
  /** The usage the provider reported for the last request the log records. */
  reported?: ReportedUsage;
  /** What of the file was read, when it is not all of it or not read as usual ('trajectory 2 of 10'). */
  detail?: string;
}

/** The key of {@link ReportedUsage} in a message's metadata. */
export const REPORTED_USAGE = 'reportedUsage';

/** A number field, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A usage with only the fields that are known; undefined when none is. */
export function reportedUsage(usage: { [K in keyof ReportedUsage]: number | undefined }): ReportedUsage | undefined {
  const known = Object.entries(usage).filter(([, v]) => typeof v === 'number');
  return known.length === 0 ? undefined : (Object.fromEntries(known) as ReportedUsage);
}

/** The usage of an Anthropic Messages response (`input_tokens` does not hold the cache reads and writes: they are added). */
export function reportedAnthropicUsage(usage: unknown): ReportedUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const cacheReadTokens = numberOf(usage.cache_read_input_tokens);
  const cacheWriteTokens = numberOf(usage.cache_creation_input_tokens);
  return reportedUsage({
    inputTokens: sumOf(numberOf(usage.input_tokens), cacheReadTokens, cacheWriteTokens),
    outputTokens: numberOf(usage.output_tokens),
    cacheReadTokens,
    cacheWriteTokens,
  });
}

/** The usage of an OpenAI Chat Completions response (`prompt_tokens` holds the cached ones), with Anthropic's cache fields when a proxy adds them. */
export function chatUsage(usage: unknown): ReportedUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return reportedUsage({
    inputTokens: numberOf(usage.prompt_tokens),
    outputTokens: numberOf(usage.completion_tokens),
    cacheReadTokens: numberOf(usage.cache_read_input_tokens) ?? numberOf(prompt.cached_tokens),
    cacheWriteTokens: numberOf(usage.cache_creation_input_tokens),
    reasoningTokens: numberOf(completion.reasoning_tokens),
  });
}

/**
 * Sets `metadata.reportedUsage` on the assistant messages, the k-th to `usages[k]` (none
 * where it is undefined), and returns the messages: for a reader that knows the usage of
 * each reply in the order the replies became assistant messages.
 */
export function withReportedUsage(messages: Message[], usages: readonly (ReportedUsage | undefined)[]): Message[] {
  let k = 0;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const usage = usages[k++];
    if (usage !== undefined) m.metadata = { ...m.metadata, [REPORTED_USAGE]: usage };
  }
  return messages;
}

/** The `metadata.reportedUsage` of the newest assistant message that has one. */
export function lastReportedUsage(messages: readonly Message[]): ReportedUsage | undefined {
  return messages.findLast((m) => m.metadata?.[REPORTED_USAGE] !== undefined)?.metadata?.[REPORTED_USAGE] as
    | ReportedUsage
    | undefined;
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
