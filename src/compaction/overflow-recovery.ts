import { cutMiddle, planCuts } from '../core/recovery.js';
import { contentLength, contentText } from '../messages/content.js';
import { isPinned } from '../messages/pin.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { Message, ToolCall } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import { compactorStrategy } from './compactor-strategy.js';
import { pruneThenFold } from './fold-turns.js';
import {
  type CompactionInput,
  type CompactionResult,
  type CompactionStrategy,
  layered,
  messageCounter,
} from './types.js';

/** The share of its target that a request that does not fit the window is compacted down to by the overflow recovery. */
export const FIT_LOW_WATER_SHARE = 0.6;

/** The name the overflow recovery reports in its compaction events and onCompaction. */
export const OVERFLOW_RECOVERY_NAME = 'overflow-recovery';

/** How much of a call's arguments the marker of a cut result quotes. */
const CALL_LABEL_CHARS = 120;

/** How many times a cut is aimed further: a result's head and tail may hold more tokens per character than its middle. */
const CUT_PASSES = 3;

/** The least a cut result keeps, in the smallest windows: its marker and a line of its head. */
const MIN_CUT_CHARS = 200;

/**
 * The recovery of a request too long for the context window (it runs only then, never while
 * the request fits): no model call; `thresholdTokens` is the size it must get under. It
 * prunes old results (at most half of that size protected), folds the oldest turns into one
 * marker turn down to FIT_LOW_WATER_SHARE of it, so the next steps have room and the run is
 * not cut to a few hundred tokens, and only if that is not enough drains and truncates the
 * oldest turns with the core Compactor. System and pinned messages are never touched. Its
 * last stage, fitTo(), is applied where the size the request must fit is known.
 */
export function overflowRecoveryStrategy(): CompactionStrategy {
  const drain = compactorStrategy();
  return {
    name: OVERFLOW_RECOVERY_NAME,
    async compact(input): Promise<CompactionResult> {
      const target = input.thresholdTokens;
      const protectedTokens = Math.min(input.protectedTokens, Math.floor(target / 2));
      const fitted = { ...input, protectedTokens };
      const folded = pruneThenFold(fitted, Math.max(1, Math.floor(target * FIT_LOW_WATER_SHARE)));
      if (input.estimateTokens(folded.messages) <= target) return folded;
      const drained = await drain.compact({ ...fitted, messages: folded.messages });
      if (drained.messages === folded.messages) return folded;
      return { ...drained, tokensBefore: folded.tokensBefore, prunedToolCallIds: folded.prunedToolCallIds };
    },
  };
}

/**
 * The overflow recovery's last stage, a layer around it: when its result is still above
 * `fitTokens` (the size the request must fit: the window less the reply, or what the
 * provider's rejection allows), the newest turn's own results, which nothing else touches,
 * are cut, head and tail kept, a pinned result never.
 */
export function fitTo(recovery: CompactionStrategy, fitTokens: number): CompactionStrategy {
  return layered(recovery, async (input) => {
    const result = await recovery.compact(input);
    const cut = cutNewestResults({ ...input, messages: result.messages }, fitTokens);
    if (cut === result.messages) return result;
    return { ...result, messages: cut, tokensAfter: input.estimateTokens(cut) };
  });
}

/**
 * The newest assistant turn's (unpinned) results cut so the request gets down to
 * `targetTokens`, head and tail kept with a marker naming the call, aiming further on each
 * of a few passes. The input's own array when nothing is cut.
 */
function cutNewestResults(input: CompactionInput, targetTokens: number): Message[] {
  let messages = input.messages;
  const latest = latestAssistantIndex(messages);
  if (latest < 0) return messages;
  const calls = new Map<string, ToolCall>();
  for (const call of (messages[latest] as Extract<Message, { role: 'assistant' }>).toolCalls ?? [])
    calls.set(call.id, call);
  const indices: number[] = [];
  for (let i = latest + 1; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool' && !isPinned(m)) indices.push(i);
  }
  const count = messageCounter(input);
  // What a cut result keeps at least: 2,000 characters, less in a window too small to hold them
  // (a result cut once, kept at that floor, is cut again only if the floor is below it).
  const minChars = Math.max(MIN_CUT_CHARS, Math.min(2_000, targetTokens));
  for (let pass = 0; pass < CUT_PASSES && indices.length > 0; pass++) {
    const over = (input.estimateTokens(messages) - targetTokens) * 4 ** pass;
    if (over <= 0) break;
    const sizes = indices.map((i) => ({
      chars: contentLength((messages[i] as Message).content),
      tokens: count(messages[i] as Message),
    }));
    const plan = planCuts(sizes, over, minChars) ?? sizes.map((s) => Math.min(s.chars, minChars));
    const next = messages.slice();
    indices.forEach((at, k) => {
      const message = next[at] as Extract<Message, { role: 'tool' }>;
      const keep = plan[k] as number;
      if (keep >= (sizes[k]?.chars ?? 0)) return;
      const call = calls.get(message.toolCallId);
      const args = argumentsText(call?.arguments ?? {}).slice(0, CALL_LABEL_CHARS);
      const label = `${call?.name ?? message.toolName ?? 'tool'}(${args}) result`;
      next[at] = { ...message, content: cutMiddle(contentText(message.content), keep, label) };
    });
    if (next.every((m, i) => m === messages[i])) break;
    messages = next;
  }
  return messages;
}
