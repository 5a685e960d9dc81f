import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import type { RequestBudget } from '../contracts/request-budget.js';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { isLLMProvider, resolveProvider } from '../providers/resolve-provider.js';
import { reportedFields } from './compaction-report.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  DEFAULT_THRESHOLD_PERCENT,
  thresholdTokens,
} from './options.js';
import { effectiveProtectedTokens } from './protected-tail.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { createRequestBudget } from './request-budget.js';
import { type CompactionOutcome, runCompaction } from './run-compaction.js';
import type { CompactionStrategy } from './types.js';

/** Options of compactMessages(); every field has a default. */
export interface CompactMessagesOptions {
  /** The strategy to run; pruneToolResultsStrategy() when absent. */
  strategy?: CompactionStrategy;
  /** The newest messages that fit in this many tokens stay as they are (default 40,000, at most half the threshold). */
  protectedTokens?: number;
  /**
   * The model, for the context-window lookup and the token estimator: a model id
   * ('gpt-4o-mini'), a "provider/model" spec (a local server's loaded window is read for
   * 'ollama/...' and 'lmstudio/...'), or an LLMProvider.
   */
  model?: ModelSpec;
  /** Context window in tokens; looked up for `model`, else 128,000. */
  contextWindow?: number;
  /** Share of the window a two-phase strategy must get under (default 0.9). */
  thresholdPercent?: number;
  /** Tokens kept free for the reply: the threshold becomes at most contextWindow - reserveOutputTokens. */
  reserveOutputTokens?: number;
  /** Aborts a summarizer call. */
  abortSignal?: AbortSignal;
}

/** What compactMessages() resolves to: the new transcript and what the compaction did. */
export interface CompactMessagesResult {
  /** A new array; the input is never modified. */
  messages: Message[];
  /** The transcript's estimated size as a request before, in tokens. */
  tokensBefore: number;
  /** Its estimated size after, in tokens (tokensBefore when nothing changed). */
  tokensAfter: number;
  /** The toolCallIds whose results were replaced by a marker. */
  prunedToolCallIds: string[];
  /** The summary text, when old turns were replaced by one. */
  summary?: string;
  /** What went wrong (a LoushoError with a code); the messages are then the input's, or the fallback's. */
  error?: Error;
  /** The strategy that ran. */
  strategy: string;
  /** The strategy whose result this is, when it fell back. */
  appliedStrategy?: string;
}

/** The sizes a compaction works with. */
export interface CompactionSizes {
  contextWindow: number;
  thresholdPercent: number;
  thresholdTokens: number;
  protectedTokens: number;
}

/**
 * The sizes of a compaction by hand, from its options and the request budget's window
 * (the option, else a registered model, else the model's server, else the table, else
 * 128,000). Throws LOUSHO_CONFIG_INVALID, naming `where`, on a bad value.
 */
export async function compactionSizes(
  options: Pick<
    CompactMessagesOptions,
    'contextWindow' | 'thresholdPercent' | 'protectedTokens' | 'reserveOutputTokens'
  >,
  budget: RequestBudget,
  where: string,
): Promise<CompactionSizes> {
  const thresholdPercent = checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT;
  const requested = checkTokens(options.protectedTokens, 'protectedTokens', where);
  const reserve = checkTokens(options.reserveOutputTokens, 'reserveOutputTokens', where) ?? 0;
  const contextWindow = await budget.contextWindow({ option: checkContextWindow(options.contextWindow, where) });
  const threshold = thresholdTokens(contextWindow, thresholdPercent, reserve);
  return {
    contextWindow,
    thresholdPercent,
    thresholdTokens: threshold,
    protectedTokens: effectiveProtectedTokens(requested, threshold).protectedTokens,
  };
}

/** The model id and the provider (for a local server's window) a `model` option names. */
export function modelOf(model: ModelSpec | undefined): { id: string | undefined; provider: LLMProvider | undefined } {
  if (model === undefined) return { id: undefined, provider: undefined };
  if (isLLMProvider(model)) return { id: model.modelId, provider: model };
  if (typeof model !== 'string')
    throw configError('model must be a model id such as "gpt-4o-mini", or an LLMProvider.');
  let provider: LLMProvider | undefined;
  if (/^(ollama|lmstudio)\//i.test(model)) provider = resolveProvider(model);
  return { id: model, provider };
}

/**
 * Runs one compaction of `messages` by hand, outside a run, through the same runner as the
 * hook (the result is checked, a rejected summary falls back): the shared body of
 * compactMessages() and session.compact().
 */
export async function compactOnce(
  messages: Message[],
  options: CompactMessagesOptions,
  where: string,
  /** Called with what compaction.start reports, just before the strategy runs. */
  onStart?: (start: { strategy: string; tokensBefore: number; contextWindow: number; thresholdTokens: number }) => void,
): Promise<{ outcome: CompactionOutcome; sizes: CompactionSizes }> {
  const strategy = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy();
  const { id, provider } = modelOf(options.model);
  const model = id ?? '';
  const budget = createRequestBudget({ model, provider });
  const sizes = await compactionSizes(options, budget, where);
  const request = { model, messages };
  const tokensBefore = budget.measure(request);
  onStart?.({
    strategy: strategy.name,
    tokensBefore,
    contextWindow: sizes.contextWindow,
    thresholdTokens: sizes.thresholdTokens,
  });
  const outcome = await runCompaction({
    strategy,
    fallback: strategy.fallback ?? pruneToolResultsStrategy(),
    tokensBefore,
    input: {
      messages,
      estimateTokens: (list) => budget.measureWith(request, list),
      countMessage: (message) => budget.messageTokens(message, model),
      contextWindow: sizes.contextWindow,
      protectedTokens: sizes.protectedTokens,
      thresholdTokens: sizes.thresholdTokens,
      ...(id === undefined ? {} : { model: id }),
      ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      ...(provider === undefined ? {} : { provider }),
    },
  });
  return { outcome, sizes };
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
  validateMessages(messages, { pendingCalls: true }); // a stored transcript may end mid-step, its last calls unanswered
  if (typeof options !== 'object' || options === null)
    throw configError('compactMessages(messages, options): options must be an object.');
  checkOptions<CompactMessagesOptions>(options, 'compactMessages()', [
    'strategy',
    'protectedTokens',
    'model',
    'contextWindow',
    'thresholdPercent',
    'reserveOutputTokens',
    'abortSignal',
  ]);
  const input = messages.slice();
  const { outcome } = await compactOnce(input, options, 'compactMessages()');
  return { messages: outcome.messages === input ? input : outcome.messages.slice(), ...reportedFields(outcome) };
}
