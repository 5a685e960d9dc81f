import { configError } from '../errors/lousho-error.js';
import { contentLength, contentText } from '../messages/content.js';
import { isPinned } from '../messages/pin.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { Message, ToolCall, ToolMessage } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import { digestOf } from './digest.js';
import { digestMarker, isPrunedMarker, prunedMarker } from './marker.js';
import { ownProtectedTokens, protectedTailStart } from './protected-tail.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, messageCounter } from './types.js';

/** The name pruneToolResultsStrategy() reports in compaction events. */
export const PRUNE_STRATEGY_NAME = 'prune-tool-results';
/** Characters a digest marker's list of names may take by default. */
export const DEFAULT_DIGEST_CHARS = 160;

/** How pruneToolResultsStrategy() writes its markers. */
export interface PruneOptions {
  /**
   * 'stub' (the default): the seed's marker, `[pruned: read({"path":"a.ts"}) result, 18234 chars; already read]`.
   * 'digest': the same marker followed by `; it showed: ` and, within `digestChars`, the names
   * the result showed (paths, defined and compound identifiers, its first error line), so the
   * next command can still use them.
   */
  marker?: 'stub' | 'digest';
  /** Characters of a digest's list of names (default 160, about 40 tokens). */
  digestChars?: number;
  /**
   * Prune a result only when it has at least this many times the tokens of its marker
   * (default 1: never a marker larger than its result).
   */
  minGainRatio?: number;
  /** Adds to each marker how to bring the result back (set by the hook when it offers recall_tool_result). */
  recallNote?: (toolCallId: string) => string;
  /**
   * Only results at or after this index are pruned (the hook's per-step prune looks at the newly read ones).
   * @internal
   */
  from?: number;
  /**
   * Digest markers: the names the transcript shows before `from` (the hook keeps them between
   * its per-step prunes). Extended with what this prune walks past; a digest leaves out what
   * the request already shows.
   * @internal
   */
  shownNames?: Set<string>;
}

function hasImage(message: ToolMessage): boolean {
  return typeof message.content !== 'string' && message.content.some((part) => part.type === 'image');
}

/**
 * Replaces the content of every tool result older than the protected tail with a marker
 * naming the call. Returns the input array itself when nothing was pruned.
 */
export function pruneToolResults(input: CompactionInput, options: PruneOptions = {}): CompactionResult {
  const ratio = options.minGainRatio ?? 1;
  const from = options.from ?? 0;
  const digestChars = options.marker === 'digest' ? (options.digestChars ?? DEFAULT_DIGEST_CHARS) : 0;
  const { messages } = input;
  const tokensBefore = input.estimateTokens(messages);
  const countMessage = messageCounter(input);
  const tailStart = protectedTailStart(messages, input.protectedTokens, countMessage);
  // Results after the latest assistant message are ones the model has not read yet.
  const end = Math.min(tailStart, Math.max(latestAssistantIndex(messages), 0));
  const calls = new Map<string, ToolCall>();
  // The names the request shows before the result at hand, which its digest need not repeat.
  const shown = digestChars > 0 ? (options.shownNames ?? new Set<string>()) : undefined;
  // Each caller checks `shown` first, so the text it would read is not even made without digests.
  const show = (text: string) => {
    if (shown !== undefined) for (const name of namesIn(text)) shown.add(name);
  };
  let output: Message[] | undefined;
  const prunedToolCallIds: string[] = [];
  let freed = 0;
  // A call comes before its results, so results from `from` on need only the calls from there on.
  for (let i = from; i < end; i++) {
    const message = messages[i] as Message;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        calls.set(call.id, call);
        if (shown !== undefined) show(argumentsText(call.arguments));
      }
      if (shown !== undefined) show(contentText(message.content));
      continue;
    }
    if (message.role !== 'tool' || isPinned(message)) {
      if (shown !== undefined) show(contentText(message.content));
      continue;
    }
    const chars = contentLength(message.content);
    if (typeof message.content === 'string' && isPrunedMarker(message.content)) {
      if (shown !== undefined) show(message.content);
      continue;
    }
    const call = calls.get(message.toolCallId);
    const args = call?.arguments ?? {};
    const stubText = prunedMarker(call?.name ?? message.toolName ?? 'tool', args, chars);
    if (chars <= stubText.length && !hasImage(message)) {
      if (shown !== undefined) show(contentText(message.content));
      continue;
    }
    const notes: string[] = [];
    if (shown !== undefined) {
      const digest = digestOf(contentText(message.content), digestChars, shown);
      if (digest !== '') notes.push(`it showed: ${digest}`);
    }
    if (options.recallNote !== undefined) notes.push(options.recallNote(message.toolCallId));
    const name = call?.name ?? message.toolName ?? 'tool';
    const marker =
      digestChars > 0
        ? digestMarker(name, chars, notes)
        : notes.length === 0
          ? stubText
          : prunedMarker(name, args, chars, notes);
    const stub: ToolMessage = { ...message, content: marker };
    // A short result can cost fewer tokens than its marker (repeated characters, long arguments).
    if (countMessage(stub) * ratio >= countMessage(message)) {
      if (shown !== undefined) show(contentText(message.content));
      continue;
    }
    if (shown !== undefined) show(marker);
    output ??= messages.slice();
    output[i] = stub;
    freed += countMessage(message) - countMessage(stub);
    prunedToolCallIds.push(message.toolCallId);
  }
  if (output === undefined) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds };
  // A request's size is the sum of its messages': what pruning freed is exact.
  return { messages: output, tokensBefore, tokensAfter: tokensBefore - freed, prunedToolCallIds };
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
  const ratio = options.minGainRatio;
  if (ratio !== undefined && (typeof ratio !== 'number' || !(ratio >= 1))) {
    throw configError(`${where}: minGainRatio must be a number >= 1, such as 2.`, { option: 'minGainRatio' });
  }
}

/** The names in a call's arguments, which a digest of its result need not repeat. */
function namesIn(text: string): Set<string> {
  return new Set(text.match(/[\w./-]{3,}/g) ?? []);
}

/** Pruning with a strategy's own protectedTokens (the hook's when undefined): the fallback of the summarizing strategies. */
export function ownPruneStrategy(protectedTokens: number | undefined): CompactionStrategy {
  if (protectedTokens === undefined) return pruneToolResultsStrategy();
  return {
    name: PRUNE_STRATEGY_NAME,
    compact: (input) => pruneToolResults({ ...input, protectedTokens: ownProtectedTokens(protectedTokens, input) }),
  };
}
