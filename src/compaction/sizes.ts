/**
 * The sizes of a compaction, as pure arithmetic: the threshold a request is compacted above,
 * and the protected tail whose messages never change.
 */
import type { Message } from '../messages/types.js';

/** The default share of the context window above which the hook compacts. */
export const DEFAULT_THRESHOLD_PERCENT = 0.9;
/** The window assumed for a model nobody registered. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/**
 * The threshold in tokens: `thresholdPercent` of the window, lowered to
 * `contextWindow - reserveOutputTokens` when that is smaller (never raised).
 */
export function thresholdTokens(contextWindow: number, thresholdPercent: number, reserveOutputTokens = 0): number {
  const byShare = Math.floor(contextWindow * thresholdPercent);
  return Math.max(1, Math.min(byShare, contextWindow - reserveOutputTokens));
}

/**
 * Index where the protected tail starts: the newest messages whose tokens add up to at
 * most `protectedTokens`. Counts only the tail, newest first.
 */
export function protectedTailStart(
  messages: readonly Message[],
  protectedTokens: number,
  countMessage: (message: Message) => number,
): number {
  let used = 0;
  let start = messages.length;
  while (start > 0) {
    const tokens = countMessage(messages[start - 1] as Message);
    if (used + tokens > protectedTokens) break;
    used += tokens;
    start--;
  }
  return start;
}

/** The default protected tail: 40,000 tokens, at most half the threshold. */
export const DEFAULT_PROTECTED_TOKENS = 40_000;

/**
 * The protected tail in effect. The default is 40,000 tokens capped at half the threshold,
 * so a small window still compacts. A value you set is used as it is, unless it is at or
 * above the threshold, where it would protect everything: then it is capped at half the
 * threshold too, and `capped` is true (the hook warns once).
 */
export function effectiveProtectedTokens(
  requested: number | undefined,
  thresholdTokens: number,
): { protectedTokens: number; capped: boolean } {
  const cap = Math.floor(thresholdTokens / 2);
  if (requested === undefined) return { protectedTokens: Math.min(DEFAULT_PROTECTED_TOKENS, cap), capped: false };
  if (requested >= thresholdTokens) return { protectedTokens: cap, capped: true };
  return { protectedTokens: requested, capped: false };
}

/**
 * The protected tail of a strategy with its own protectedTokens option: that value capped
 * at half the input's threshold like the hook's (so the strategy can get under the
 * threshold), else the hook's, which is capped already.
 */
export function ownProtectedTokens(
  own: number | undefined,
  input: { protectedTokens: number; thresholdTokens: number },
): number {
  if (own === undefined) return input.protectedTokens;
  return effectiveProtectedTokens(own, input.thresholdTokens).protectedTokens;
}
