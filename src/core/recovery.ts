/**
 * The API-error half of context management: the pure rules for recovering from the
 * errors no provider SDK handles for you — a request rejected as too long, an oversized
 * media attachment, a reply cut at the output token limit — and for cutting results that
 * cannot fit. The agent's step loop (executor/recover-call.ts) applies them.
 */
import { LoushoError } from '../errors/lousho-error.js';

/** How many times each recovery is tried within one step before the run gives up. */
export const RECOVERY_LIMITS = {
  contextOverflow: 3,
  mediaTooLarge: 3,
  outputTruncated: 3,
} as const;

export type RecoveryKind = 'context-overflow' | 'media-too-large' | 'output-truncated';

/** Which recovery an error calls for, or undefined when none applies. */
export function recoveryFor(error: unknown): RecoveryKind | undefined {
  if (!LoushoError.isInstance(error)) return undefined;
  if (error.code === 'LOUSHO_CONTEXT_OVERFLOW') return 'context-overflow';
  if (error.code === 'LOUSHO_MEDIA_TOO_LARGE') return 'media-too-large';
  return undefined;
}

/** The real context window an overflow error states, when it states one. */
export function statedLimit(error: unknown): number | undefined {
  if (!LoushoError.isInstance(error)) return undefined;
  const limit = error.details?.limit;
  return typeof limit === 'number' && limit > 0 ? limit : undefined;
}

/** The request size an overflow error states, when it states one. */
export function statedRequest(error: unknown): number | undefined {
  if (!LoushoError.isInstance(error)) return undefined;
  const requested = error.details?.requested;
  return typeof requested === 'number' && requested > 0 ? requested : undefined;
}

/**
 * The size to compact to after an overflow: 85% of the stated limit (or of the estimate
 * when no limit is stated), tightened by a further 15% on each later attempt.
 */
export function overflowTarget(options: { limit: number | undefined; estimate: number; attempt: number }): number {
  const base = options.limit ?? options.estimate;
  return Math.max(1, Math.floor(base * 0.85 * 0.85 ** Math.max(0, options.attempt - 1)));
}

/** The marker that replaces an image or file the provider rejected as too large. */
export function mediaMarker(description: string): string {
  return `[image removed: ${description}; the provider rejected it as too large]`;
}

/**
 * Cuts `text` to at most `maxChars`, keeping its head (70%) and tail, with a marker that
 * names the call and says how many characters were cut. When `maxChars` is shorter than
 * the marker itself, the result is the marker alone.
 */
export function cutMiddle(text: string, maxChars: number, label: string): string {
  if (text.length <= maxChars) return text;
  const marker = (cut: number) =>
    `\n[... cut ${cut} of ${text.length} chars of ${label} to fit the context window ...]\n`;
  // The marker's length depends on the count it states: size it, then state the exact count.
  const keep = Math.max(0, maxChars - marker(text.length).length);
  const head = Math.ceil(keep * 0.7);
  return text.slice(0, head) + marker(text.length - keep) + text.slice(text.length - (keep - head));
}

/**
 * How many characters each result may keep so that `overTokens` fewer tokens are sent:
 * the largest results are cut first, none below `minChars`. `sizes` are chars and tokens
 * of each result. Returns the new length of each (unchanged where no cut is needed), or
 * undefined when even cutting every result to `minChars` is not enough.
 */
export function planCuts(
  sizes: readonly { chars: number; tokens: number }[],
  overTokens: number,
  minChars = 2_000,
): number[] | undefined {
  const out = sizes.map((s) => s.chars);
  let remaining = overTokens;
  const order = sizes.map((_, i) => i).sort((a, b) => (sizes[b]?.tokens ?? 0) - (sizes[a]?.tokens ?? 0));
  for (const i of order) {
    if (remaining <= 0) break;
    const size = sizes[i] as { chars: number; tokens: number };
    if (size.chars <= minChars || size.tokens === 0) continue;
    const charsPerToken = size.chars / size.tokens;
    const cuttable = size.tokens - Math.ceil(minChars / charsPerToken);
    // A little more than needed: the marker costs tokens too.
    const cut = Math.min(cuttable, Math.ceil(remaining * 1.1) + 50);
    out[i] = Math.max(minChars, Math.floor(size.chars - cut * charsPerToken));
    remaining -= cut;
  }
  return remaining > 0 ? undefined : out;
}

/** The larger output limit to retry a cut reply with, when the model allows one. */
export function largerOutputLimit(current: number | undefined, modelMax: number | undefined): number | undefined {
  if (current === undefined || modelMax === undefined || current >= modelMax) return undefined;
  return Math.min(modelMax, current * 2);
}

/** What the model is asked after a reply cut at the output limit. */
export const CONTINUE_PROMPT =
  'Your previous reply was cut off at the output token limit. Continue exactly where it stopped, without repeating ' +
  'anything; if you were writing a tool call, write the whole tool call again.';

/** Joins a cut reply and its continuation, dropping text the continuation repeated. */
export function stitchText(first: string, next: string): string {
  const max = Math.min(first.length, next.length, 200);
  for (let n = max; n >= 20; n--) {
    if (first.endsWith(next.slice(0, n))) return first + next.slice(n);
  }
  return first + next;
}
