import { contentLength } from '../messages/content.js';
import { isPinned } from '../messages/pin.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { Message, ToolCall, ToolMessage } from '../messages/types.js';
import { isPrunedMarker, prunedMarker } from './marker.js';
import { ownProtectedTokens, protectedTailStart } from './protected-tail.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, messageCounter } from './types.js';

export const PRUNE_STRATEGY_NAME = 'prune-tool-results';

function hasImage(message: ToolMessage): boolean {
  return typeof message.content !== 'string' && message.content.some((part) => part.type === 'image');
}

/**
 * Replaces the content of every tool result older than the protected tail with a marker
 * naming the call. Returns the input array itself when nothing was pruned.
 */
export function pruneToolResults(input: CompactionInput): CompactionResult {
  const { messages } = input;
  const tokensBefore = input.estimateTokens(messages);
  const countMessage = messageCounter(input);
  const tailStart = protectedTailStart(messages, input.protectedTokens, countMessage);
  // Results after the latest assistant message are ones the model has not read yet.
  const end = Math.min(tailStart, Math.max(latestAssistantIndex(messages), 0));
  const calls = new Map<string, ToolCall>();
  let output: Message[] | undefined;
  const prunedToolCallIds: string[] = [];
  for (let i = 0; i < end; i++) {
    const message = messages[i] as Message;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) calls.set(call.id, call);
      continue;
    }
    if (message.role !== 'tool' || isPinned(message)) continue;
    const chars = contentLength(message.content);
    if (typeof message.content === 'string' && isPrunedMarker(message.content)) continue;
    const call = calls.get(message.toolCallId);
    const marker = prunedMarker(call?.name ?? message.toolName ?? 'tool', call?.arguments ?? {}, chars);
    if (chars <= marker.length && !hasImage(message)) continue;
    const stub: ToolMessage = { ...message, content: marker };
    // A short result can cost fewer tokens than its marker (repeated characters, long arguments).
    if (countMessage(stub) >= countMessage(message)) continue;
    output ??= messages.slice();
    output[i] = stub;
    prunedToolCallIds.push(message.toolCallId);
  }
  if (output === undefined) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds };
  return { messages: output, tokensBefore, tokensAfter: input.estimateTokens(output), prunedToolCallIds };
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
export function pruneToolResultsStrategy(): CompactionStrategy {
  return { name: PRUNE_STRATEGY_NAME, compact: pruneToolResults };
}

/** Pruning with a strategy's own protectedTokens (the hook's when undefined): the fallback of the summarizing strategies. */
export function ownPruneStrategy(protectedTokens: number | undefined): CompactionStrategy {
  if (protectedTokens === undefined) return pruneToolResultsStrategy();
  return {
    name: PRUNE_STRATEGY_NAME,
    compact: (input) => pruneToolResults({ ...input, protectedTokens: ownProtectedTokens(protectedTokens, input) }),
  };
}
