import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { estimateTokens, messageTokens, tokenProfile } from '../models/estimate-tokens.js';
import { getModelInfo } from '../models/registry.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  DEFAULT_THRESHOLD_PERCENT,
  FALLBACK_CONTEXT_WINDOW,
  thresholdTokens,
} from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import type { CompactionStrategy } from './types.js';

export interface CompactMessagesOptions {
  /** The strategy to run; pruneToolResultsStrategy() when absent. */
  strategy?: CompactionStrategy;
  /** The newest messages that fit in this many tokens stay as they are (default 40,000, at most half the threshold). */
  protectedTokens?: number;
  /** Model id for the context-window lookup and the token estimator. */
  model?: string;
  /** Context window in tokens; looked up for `model`, else 128,000. */
  contextWindow?: number;
  /** Share of the window a two-phase strategy must get under (default 0.9). */
  thresholdPercent?: number;
  /** Aborts a summarizer call. */
  abortSignal?: AbortSignal;
}

export interface CompactMessagesResult {
  /** A new array; the input is never modified. */
  messages: Message[];
  tokensBefore: number;
  tokensAfter: number;
  prunedToolCallIds: string[];
  summary?: string;
  error?: Error;
  /** The strategy that ran. */
  strategy: string;
  /** The strategy whose result this is, when it fell back. */
  appliedStrategy?: string;
}

/**
 * The sizes a compaction by hand works with, from its options: the window (the option,
 * else the model registry, else 128,000), the threshold and the protected tail. Throws
 * LOUSHO_CONFIG_INVALID, naming `where`, on a bad value.
 */
export function compactionSizes(
  options: Pick<CompactMessagesOptions, 'model' | 'contextWindow' | 'thresholdPercent' | 'protectedTokens'>,
  where: string,
): { contextWindow: number; thresholdPercent: number; thresholdTokens: number; protectedTokens: number } {
  const thresholdPercent = checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT;
  const requested = checkTokens(options.protectedTokens, 'protectedTokens', where);
  const contextWindow =
    checkContextWindow(options.contextWindow, where) ??
    (options.model === undefined ? undefined : getModelInfo(options.model)?.contextWindow) ??
    FALLBACK_CONTEXT_WINDOW;
  const threshold = thresholdTokens(contextWindow, thresholdPercent);
  return {
    contextWindow,
    thresholdPercent,
    thresholdTokens: threshold,
    protectedTokens: effectiveProtectedTokens(requested, threshold).protectedTokens,
  };
}

/**
 * Runs a strategy once, whatever the size of the conversation, and resolves to a new
 * array (the input is not modified). Use it to shrink a stored transcript before you
 * continue it. A summarizer's call here is not counted toward any run.
 *
 * @example
 * const { messages, tokensBefore, tokensAfter } = await compactMessages(history, { protectedTokens: 8_000, model: 'gpt-4o-mini' });
 */
export async function compactMessages(
  messages: Message[],
  options: CompactMessagesOptions = {},
): Promise<CompactMessagesResult> {
  validateMessages(messages);
  if (typeof options !== 'object' || options === null)
    throw configError('compactMessages(messages, options): options must be an object.');
  const where = 'compactMessages()';
  const strategy = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy();
  const model = options.model;
  const { contextWindow, thresholdTokens: threshold, protectedTokens } = compactionSizes(options, where);
  const profile = tokenProfile(model);
  const input = messages.slice();
  const result = await strategy.compact({
    messages: input,
    estimateTokens: (list) => estimateTokens(list, model),
    countMessage: (message) => messageTokens(message, profile),
    contextWindow,
    protectedTokens,
    thresholdTokens: threshold,
    ...(model === undefined ? {} : { model }),
    ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
  });
  if (!Array.isArray(result?.messages)) {
    throw configError(
      `${where}: strategy '${strategy.name}' returned no messages array; compact() must return { messages, ... }.`,
    );
  }
  return {
    messages: result.messages === input ? input : result.messages.slice(),
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    prunedToolCallIds: result.prunedToolCallIds ?? [],
    ...(result.summary === undefined ? {} : { summary: result.summary }),
    ...(result.error === undefined ? {} : { error: result.error }),
    strategy: strategy.name,
    ...(result.appliedStrategy === undefined ? {} : { appliedStrategy: result.appliedStrategy }),
  };
}
