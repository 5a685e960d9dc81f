/** Small statistics and formatting helpers shared by the benchmark modules. */

/** The p-th percentile (0 < p <= 1) by nearest rank: the smallest value with at least p of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

/** The median (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Milliseconds with a precision that suits their size. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** A count with thousands separators. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A ratio such as 123x, with one decimal below 10. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  return r >= 10 ? `${formatInt(r)}x` : `${r.toFixed(1)}x`;
}

/** A share as a percentage, signed when asked. */
export function formatPercent(x: number, signed = false): string {
  const text = `${(x * 100).toFixed(1)}%`;
  return signed && x >= 0 ? `+${text}` : text;
}

/** A deterministic pseudo-random generator (mulberry32) returning values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median of repeated runs' values with their range, e.g. "1.3x (1.1x–1.6x)"; the range is left out for one run. */
export function formatSpread(values: readonly number[], format: (value: number) => string): string {
  if (values.length <= 1) return format(values[0] ?? Number.NaN);
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}

/** The median and the p99 (nearest rank) of some steps' times, in one clock. */
export interface StepStats {
  medianMs: number;
  p99Ms: number;
}

/** The median and the p99 of `values`. */
export function stepStats(values: readonly number[]): StepStats {
  return { medianMs: median(values), p99Ms: percentile(values, 0.99) };
}
