/** Text helpers of the run report's page. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe inside an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * `text` as well-formed Unicode: each lone surrogate (half of a pair, as a result cut in the
 * middle of an emoji holds) becomes U+FFFD, which is what writing it as UTF-8 would give, so
 * the page written is the page that reads back.
 */
export const wellFormed = (text: string): string => text.replace(/\p{Cs}/gu, '\uFFFD');

/** A count with thousands separators: 25,820. */
export const count = (value: number): string => Math.round(value).toLocaleString('en-US');

/** A token count for an axis: 950, 24k, 1.2M. */
export function shortTokens(value: number): string {
  if (value < 1000) return String(Math.round(value));
  if (value < 1_000_000) return `${Number((value / 1000).toFixed(value < 10_000 ? 1 : 0))}k`;
  return `${Number((value / 1_000_000).toFixed(value < 10_000_000 ? 2 : 1))}M`;
}

/** A share as a percentage: 71%. */
export const percent = (part: number, whole: number): string =>
  `${whole === 0 ? 0 : Math.round((part / whole) * 100)}%`;
