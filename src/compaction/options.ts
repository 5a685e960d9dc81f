import { configError } from '../errors/lousho-error.js';
import type { CompactionStrategy } from './types.js';
import { isCompactionStrategy } from './types.js';

/** The default share of the context window above which the hook compacts. */
export const DEFAULT_THRESHOLD_PERCENT = 0.9;
/** The window assumed for a model nobody registered. */
export const FALLBACK_CONTEXT_WINDOW = 128_000;

/** Throws LOUSHO_CONFIG_INVALID unless thresholdPercent is in (0, 1]. */
export function checkThresholdPercent(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
    throw configError(
      `${where}: thresholdPercent must be a share of the context window in (0, 1], such as 0.8 for 80%; got ${String(value)}.`,
      { option: 'thresholdPercent' },
    );
  }
  return value;
}

/** Throws LOUSHO_CONFIG_INVALID unless the value is a finite number >= 0 (or undefined). */
export function checkTokens(value: unknown, option: string, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw configError(`${where}: ${option} must be a number of tokens >= 0, got ${String(value)}.`, { option });
  }
  return value;
}

/** Throws LOUSHO_CONFIG_INVALID unless the value is a positive integer (or undefined). */
export function checkContextWindow(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw configError(
      `${where}: contextWindow must be a positive whole number of tokens, such as 8_192; got ${String(value)}.`,
      {
        option: 'contextWindow',
      },
    );
  }
  return value;
}

/** Throws LOUSHO_CONFIG_INVALID unless the value is a CompactionStrategy (or undefined). */
export function checkStrategy(value: unknown, where: string): CompactionStrategy | undefined {
  if (value === undefined) return undefined;
  if (!isCompactionStrategy(value)) {
    throw configError(
      `${where}: strategy must be a CompactionStrategy, an object with a name and a compact() function, ` +
        'such as pruneToolResultsStrategy() or twoPhaseStrategy({ model }).',
      { option: 'strategy' },
    );
  }
  return value;
}

/**
 * The threshold in tokens: `thresholdPercent` of the window, lowered to
 * `contextWindow - reserveOutputTokens` when that is smaller (never raised).
 */
export function thresholdTokens(contextWindow: number, thresholdPercent: number, reserveOutputTokens = 0): number {
  const byShare = Math.floor(contextWindow * thresholdPercent);
  return Math.max(1, Math.min(byShare, contextWindow - reserveOutputTokens));
}
