import { configError } from '../errors/lousho-error.js';
import { contentLength } from '../messages/content.js';
import { isPinned } from '../messages/pin.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { Message, ToolCall, ToolMessage } from '../messages/types.js';
import { isPrunedMarker, prunedMarker } from './marker.js';
import { digestMarkers, type MarkerWriter, stubMarkers } from './marker-writers.js';
import { ownProtectedTokens, protectedTailStart } from './sizes.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, messageCounter } from './types.js';

/** The name pruneToolResultsStrategy() reports in compaction events. */
export const PRUNE_STRATEGY_NAME = 'prune-tool-results';
export { DEFAULT_DIGEST_CHARS } from './marker-writers.js';

/** How pruneToolResultsStrategy() writes its markers. */
export interface PruneOptions {
  /**
   * 'stub' (the default): the marker `[pruned: read({"path":"a.ts"}) result, 18234 chars; already read]`.
   * 'digest': the same marker followed by `; it showed: ` and, within `digestChars`, the names
   * the result showed (paths, defined and compound identifiers, its first error line), so the
   * next command can still use them.
   */
  marker?: 'stub' | 'digest';
  /** Characters of a digest's list of names (default 160, about 40 tokens). */
  digestChars?: number;
}

/** Which results a prune looks at, for a layer that prunes as it goes (lean mode). */
export interface PruneRange {
  /** Only results at or after this index are pruned (the calls they answer come after it too). */
  from?: number;
  /** Prune a result only when it has this many times its marker's tokens (default 1: never a marker larger than its result). */
  minGainRatio?: number;
}

function hasImage(message: ToolMessage): boolean {
  return typeof message.content !== 'string' && message.content.some((part) => part.type === 'image');
}

/**
 * The seed's rule: replaces the content of every tool result older than the protected tail
 * with a marker naming the call, written by `markers`. Never a system, user or assistant
 * message, a result of the latest assistant turn, a pinned result, a marker, or a result
 * shorter than its marker (in characters or in tokens). Returns the input array itself
 * when nothing was pruned.
 */
export function pruneWith(input: CompactionInput, markers: MarkerWriter, range: PruneRange = {}): CompactionResult {
  const ratio = range.minGainRatio ?? 1;
  const { messages } = input;
  const tokensBefore = input.estimateTokens(messages);
  const countMessage = messageCounter(input);
  const tailStart = protectedTailStart(messages, input.protectedTokens, countMessage);
  // Results after the latest assistant message are ones the model has not read yet.
  const end = Math.min(tailStart, Math.max(latestAssistantIndex(messages), 0));
  const calls = new Map<string, ToolCall>();
  let output: Message[] | undefined;
  const prunedToolCallIds: string[] = [];
  let freed = 0;
  // A call comes before its results, so results from `from` on need only the calls from there on.
  for (let i = range.from ?? 0; i < end; i++) {
    const message = messages[i] as Message;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    if (message.role !== 'tool' || isPinned(message)) {
      markers.see(message);
      continue;
    }
    const chars = contentLength(message.content);
    const call = calls.get(message.toolCallId);
    const name = call?.name ?? message.toolName ?? 'tool';
    const args = call?.arguments ?? {};
    const marked = typeof message.content === 'string' && isPrunedMarker(message.content);
    if (marked || (chars <= prunedMarker(name, args, chars).length && !hasImage(message))) {
      markers.see(message);
      continue;
    }
    const stub: ToolMessage = { ...message, content: markers.write(name, args, chars, message) };
    // A short result can cost fewer tokens than its marker (repeated characters, long arguments).
    if (countMessage(stub) * ratio >= countMessage(message)) {
      markers.see(message);
      continue;
    }
    markers.see(stub);
    output ??= messages.slice();
    output[i] = stub;
    freed += countMessage(message) - countMessage(stub);
    prunedToolCallIds.push(message.toolCallId);
  }
  if (output === undefined) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds };
  // A request's size is the sum of its messages': what pruning freed is exact.
  return { messages: output, tokensBefore, tokensAfter: tokensBefore - freed, prunedToolCallIds };
}

/** The marker writer of prune options: the seed's stub, or a digest of `digestChars`. */
export function markersFor(options: PruneOptions): MarkerWriter {
  return options.marker === 'digest' ? digestMarkers(options.digestChars) : stubMarkers;
}

/** Prunes `input` with the options' markers (see {@link pruneWith}). */
export function pruneToolResults(input: CompactionInput, options: PruneOptions = {}): CompactionResult {
  return pruneWith(input, markersFor(options));
}

/**
 * Replaces old tool results with a short marker such as
 * `[pruned: search({"query":"deploy"}) result, 18234 chars; already read]`. No model call.
 * Never changes system, user or assistant messages, the results of the latest assistant
 * turn, pinned results, markers, or results shorter than their marker (in characters or
 * in tokens), so pruning never makes a transcript larger.
 *
 * @example
 * createCompactionHook({ strategy: pruneToolResultsStrategy() });
 */
export function pruneToolResultsStrategy(options: PruneOptions = {}): CompactionStrategy {
  checkPruneOptions(options, 'pruneToolResultsStrategy()');
  return { name: PRUNE_STRATEGY_NAME, compact: (input) => pruneToolResults(input, options) };
}

/** Throws LOUSHO_CONFIG_INVALID on a bad option of pruneToolResultsStrategy(). */
export function checkPruneOptions(options: PruneOptions, where: string): void {
  if (typeof options !== 'object' || options === null) throw configError(`${where} takes an options object.`);
  if (options.marker !== undefined && options.marker !== 'stub' && options.marker !== 'digest') {
    throw configError(`${where}: marker must be 'stub' (the default) or 'digest', got ${String(options.marker)}.`, {
      option: 'marker',
    });
  }
  const digestChars = options.digestChars;
  if (digestChars !== undefined && (!Number.isInteger(digestChars) || digestChars < 0)) {
    throw configError(`${where}: digestChars must be a whole number of characters >= 0, such as 160.`, {
      option: 'digestChars',
    });
  }
}

/** Pruning with a strategy's own protectedTokens (the hook's when undefined): the fallback of the summarizing strategies. */
export function ownPruneStrategy(protectedTokens: number | undefined): CompactionStrategy {
  if (protectedTokens === undefined) return pruneToolResultsStrategy();
  return {
    name: PRUNE_STRATEGY_NAME,
    compact: (input) => pruneToolResults({ ...input, protectedTokens: ownProtectedTokens(protectedTokens, input) }),
  };
}
