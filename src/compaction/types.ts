import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';

/** What a strategy receives. */
export interface CompactionInput {
  /** The transcript to compact. Do not modify it: return a new array. */
  messages: Message[];
  /** Token counter for the request's model: the size of a request holding these messages. */
  estimateTokens: (messages: readonly Message[]) => number;
  /** Tokens of one message, for measuring the protected tail. Derived from estimateTokens when absent. */
  countMessage?: (message: Message) => number;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The newest messages that fit in this many tokens must not change. */
  protectedTokens: number;
  /** The size to get under, in tokens. */
  thresholdTokens: number;
  /** The request's model id, when known. */
  model?: string;
  /** The run's abort signal; pass it to any model call. */
  abortSignal?: AbortSignal;
  /** Called after each model call the strategy makes, so the run can count its usage and limits. */
  onModelCall?: (call: ReportedModelCall) => void;
  /** The provider the run calls, when the compaction runs inside a run (for a strategy that asks it to compact). */
  provider?: LLMProvider;
  /** The tool definitions of the request, when the compaction runs inside a run. */
  tools?: readonly ToolDefinition[];
  /** The request's prompt-cache key (`ModelRequest.cacheKey`), for a strategy's model call that reads the same prefix. */
  cacheKey?: string;
  /**
   * What stands for the transcript across the compactions of one run (the hook passes the
   * run's transcript), for a layer that keeps state between them: lean mode's position, a
   * paused summarizer, a minimum gain's wait. Absent, the messages array itself. A layer that
   * hands its inner strategy other messages passes it on unchanged.
   */
  transcript?: object;
}

/** The object a layer keys its state by: the input's transcript, else its messages. */
export function transcriptOf(input: TranscriptAt): object {
  return input.transcript ?? input.messages;
}

/** What a strategy returns. */
export interface CompactionResult {
  /** The new transcript; the input array itself when nothing changed. */
  messages: Message[];
  /** The request's size before, in tokens (by `estimateTokens`). */
  tokensBefore: number;
  /** The request's size after, in tokens; the runner measures it again rather than trusting it. */
  tokensAfter: number;
  /** toolCallIds whose results were replaced by a marker. */
  prunedToolCallIds: string[];
  /** The summary text, when old turns were replaced by a summary. */
  summary?: string;
  /** Set when part of the strategy failed (the summarizer) and it fell back. */
  error?: Error;
  /** The strategy whose result this is, when it differs from the strategy that ran (a fallback). */
  appliedStrategy?: string;
}

/**
 * A way to compact a transcript: a name and a compact() function, sync or async.
 * Strategies must keep every tool call with its result and honour isPinned().
 */
export interface CompactionStrategy {
  /** Names the strategy in events, results and errors, e.g. 'prune-tool-results'. */
  readonly name: string;
  /** Compacts `input.messages` into a new array; may call a model (a summarizer) and may throw. */
  compact(input: CompactionInput): CompactionResult | Promise<CompactionResult>;
  /**
   * The strategy's own prune step: set it on a strategy that summarizes. The summary rule then
   * applies around it on every path: a summary that leaves the request above the threshold, or
   * makes it larger, is rejected and this prune kept, and only this runs while summaries are
   * paused (see summaryGuard()).
   */
  readonly fallback?: CompactionStrategy;
  /**
   * For a layer that works below the threshold too (lean mode): true when it has work on these
   * messages although the request is under the threshold. The hook then runs the strategy and
   * reports it only if it changed something.
   */
  wants?(at: TranscriptAt): boolean;
  /**
   * Tools the strategy answers for (the recall layer's recall_tool_result): each is sent with a
   * request only while `offers()` names it.
   */
  readonly tools?: readonly ToolDefinition[];
  /** The names of `tools` to send with the request now (recall_tool_result once something can be recalled). */
  offers?(at: TranscriptAt): readonly string[];
  /** The name of what would run on these messages now (a summarizing strategy's prune step while its summaries are paused). */
  running?(at: TranscriptAt): string;
}

/** A transcript as a layer's state knows it: its messages, and what stands for it across a run's compactions. */
export type TranscriptAt = Pick<CompactionInput, 'messages' | 'transcript'>;

/**
 * `inner` with its `compact` replaced: a layer around it. Its name, fallback and what it
 * wants, offers and runs are the inner strategy's, unless `own` says otherwise.
 */
export function layered(
  inner: CompactionStrategy,
  compact: CompactionStrategy['compact'],
  own: Partial<Pick<CompactionStrategy, 'wants' | 'tools' | 'offers' | 'running'>> = {},
): CompactionStrategy {
  return { ...inner, compact, ...own };
}

/** True when `value` has the shape of a {@link CompactionStrategy}. */
export function isCompactionStrategy(value: unknown): value is CompactionStrategy {
  const v = value as Partial<CompactionStrategy> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.name === 'string' &&
    v.name !== '' &&
    typeof v.compact === 'function'
  );
}

/** The per-message counter of an input: its own, or one derived from estimateTokens. */
export function messageCounter(input: CompactionInput): (message: Message) => number {
  if (input.countMessage !== undefined) return input.countMessage;
  const empty = input.estimateTokens([]);
  return (message) => input.estimateTokens([message]) - empty;
}
