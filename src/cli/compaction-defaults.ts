import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from '../compaction/options.js';
import { DEFAULT_PROTECTED_TOKENS, effectiveProtectedTokens } from '../compaction/protected-tail.js';
import { getModelInfo } from '../models/registry.js';

/** The window, threshold and protected tail `inspect` previews with and `compact` runs with: one set of defaults for both. */
export interface CliCompactionSizes {
  contextWindow: number;
  /** Where the window came from: --context-window, the model's table entry, or the 128,000 assumed for an unknown model. */
  contextWindowSource: 'option' | 'model' | 'fallback';
  thresholdTokens: number;
  /** The newest messages that fit in this many tokens stay as they are. */
  protectedTokens: number;
  /** --protected-tokens, or the default (40,000 tokens, at most half the threshold). */
  protectedSource: 'option' | 'default';
}

/**
 * The sizes of a compaction from the command line, as compactMessages() works them out
 * (the window from the option, else the model's table entry, else 128,000; the protected
 * tail from the option, else the default capped at half the threshold).
 */
export function cliCompactionSizes(
  model: string | undefined,
  options: {
    contextWindow?: number | undefined;
    thresholdPercent?: number | undefined;
    protectedTokens?: number | undefined;
  },
): CliCompactionSizes {
  const info = model === undefined ? undefined : getModelInfo(model);
  const contextWindow = options.contextWindow ?? info?.contextWindow ?? 128_000;
  const contextWindowSource =
    options.contextWindow !== undefined ? 'option' : info !== undefined ? 'model' : 'fallback';
  const threshold = thresholdTokens(contextWindow, options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT);
  return {
    contextWindow,
    contextWindowSource,
    thresholdTokens: threshold,
    protectedTokens: effectiveProtectedTokens(options.protectedTokens, threshold).protectedTokens,
    protectedSource: options.protectedTokens === undefined ? 'default' : 'option',
  };
}

/** "protected tail: the newest 40,000 tokens (the default: 40,000, at most half the threshold)". */
export function describeProtectedTail(sizes: Pick<CliCompactionSizes, 'protectedTokens' | 'protectedSource'>): string {
  const n = sizes.protectedTokens.toLocaleString('en-US');
  const why =
    sizes.protectedSource === 'option'
      ? '--protected-tokens'
      : `the default: ${DEFAULT_PROTECTED_TOKENS.toLocaleString('en-US')}, at most half the threshold`;
  return `protected tail: the newest ${n} tokens stay as they are (${why})`;
}
