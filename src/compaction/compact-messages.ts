import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import type { RequestBudget } from '../contracts/request-budget.js';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { isLLMProvider, resolveProvider } from '../providers/resolve-provider.js';
import type { CompactionConfig } from './compaction-options.js';
import { reportedFields } from './compaction-report.js';
import { createRequestBudget } from './request-budget.js';
import { type ResolvedCompaction, resolveCompaction } from './resolve-compaction.js';
import { type CompactionOutcome, runCompaction } from './run-compaction.js';
import { effectiveProtectedTokens, thresholdTokens } from './sizes.js';
import type { CompactionInput } from './types.js';

/** Options of compactMessages(); every field has a default. */
export interface CompactMessagesOptions extends Omit<CompactionConfig, 'onCompaction' | 'overflowRecovery'> {
  /**
   * The model, for the context-window lookup and the token estimator: a model id
   * ('gpt-4o-mini'), a "provider/model" spec (a local server's loaded window is read for
   * 'ollama/...' and 'lmstudio/...'), or an LLMProvider.
   */
  model?: ModelSpec;
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
 * The sizes of a compaction by hand, from its resolved options and the request budget's
 * window (the option, else a registered model, else the model's server, else the table, else
 * 128,000).
 */
export async function compactionSizes(resolved: ResolvedCompaction, budget: RequestBudget): Promise<CompactionSizes> {
  const contextWindow = await budget.contextWindow({ option: resolved.contextWindow });
  const threshold = thresholdTokens(contextWindow, resolved.thresholdPercent, resolved.reserveOutputTokens);
  return {
    contextWindow,
    thresholdPercent: resolved.thresholdPercent,
    thresholdTokens: threshold,
    protectedTokens: effectiveProtectedTokens(resolved.protectedTokens, threshold).protectedTokens,
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
 * Runs one compaction of `messages` by hand, outside a run, through the same runner and the
 * same resolved, layered strategy as the hook: the shared body of compactMessages() and
 * session.compact().
 */
export async function compactOnce(
  messages: Message[],
  resolved: ResolvedCompaction,
  run: { model?: ModelSpec | undefined; abortSignal?: AbortSignal | undefined },
  /** Called with what compaction.start reports, just before the strategy runs. */
  onStart?: (start: { strategy: string; tokensBefore: number; contextWindow: number; thresholdTokens: number }) => void,
): Promise<{ outcome: CompactionOutcome; sizes: CompactionSizes }> {
  const { id, provider } = modelOf(run.model);
  const model = id ?? '';
  const budget = createRequestBudget({ model, provider });
  const sizes = await compactionSizes(resolved, budget);
  const request = { model, messages };
  const tokensBefore = budget.measure(request);
  const input: CompactionInput = {
    messages,
    estimateTokens: (list) => budget.measureWith(request, list),
    countMessage: (message) => budget.messageTokens(message, model),
    contextWindow: sizes.contextWindow,
    protectedTokens: sizes.protectedTokens,
    thresholdTokens: sizes.thresholdTokens,
    ...(id === undefined ? {} : { model: id }),
    ...(run.abortSignal === undefined ? {} : { abortSignal: run.abortSignal }),
    ...(provider === undefined ? {} : { provider }),
  };
  const name = resolved.strategy.running?.(input) ?? resolved.strategy.name;
  onStart?.({
    strategy: name,
    tokensBefore,
    contextWindow: sizes.contextWindow,
    thresholdTokens: sizes.thresholdTokens,
  });
  return { outcome: await runCompaction(resolved.strategy, input, tokensBefore, name), sizes };
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
  const { model, abortSignal, ...compaction } = options;
  const resolved = resolveCompaction(compaction, 'compactMessages()');
  const input = messages.slice();
  const { outcome } = await compactOnce(input, resolved, { model, abortSignal });
  return { messages: outcome.messages === input ? input : outcome.messages.slice(), ...reportedFields(outcome) };
}
