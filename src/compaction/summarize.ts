import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { summarizeWithModel } from '../core/llm-summarizer.js';
import { isSummarizer, type Summarizer, summaryText } from '../core/summarizer.js';
import { checkOptions } from '../errors/check-options.js';
import { configError, toError } from '../errors/lousho-error.js';
import { renderMessage, serializeTranscript } from '../messages/render.js';
import type { Message, UserMessage } from '../messages/types.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import { ownPruneStrategy, pruneToolResults } from './prune-tool-results.js';
import { ownProtectedTokens } from './sizes.js';
import { applySummary, planSummary } from './summary-plan.js';
import { type CompactionInput, type CompactionResult, type CompactionStrategy, messageCounter } from './types.js';

/** The name summarizeStrategy() reports in compaction events. */
export const SUMMARIZE_STRATEGY_NAME = 'summarize';
/** The first line of every summary message. */
export const SUMMARY_HEADER = '[Conversation summary]';

/** Options of summarizeStrategy() and twoPhaseStrategy(): a summarizer model (or Summarizer) and how to use it. */
export interface SummarizeStrategyOptions {
  /** The summarizer: an LLMProvider, or a "provider/model" spec resolved with resolveProvider(). */
  model?: ModelSpec;
  /**
   * A Summarizer instead of `model`: an LLMSummarizer (a model call that falls back to
   * truncation) or a TruncatingSummarizer (no model call).
   */
  summarizer?: Summarizer<Message>;
  /** Recent tokens kept as they are; the hook's protectedTokens when absent. */
  protectedTokens?: number;
  /** The summarizer's system message; DEFAULT_SUMMARY_PROMPT when absent. */
  prompt?: string;
  /** maxOutputTokens of the summary call; the provider's default when absent. */
  maxSummaryTokens?: number;
}

/** The summary message that replaces old turns. */
export function summaryMessage(summary: string): UserMessage {
  return { role: 'user', content: `${SUMMARY_HEADER}\n${summary}`, metadata: { summary: true } };
}

/** Checks the options shared by summarizeStrategy() and twoPhaseStrategy(). */
export function validateSummarizeOptions(
  options: unknown,
  factory: string,
): asserts options is SummarizeStrategyOptions {
  if (typeof options !== 'object' || options === null) {
    throw configError(
      `${factory}() takes an options object with a model, e.g. ${factory}({ model: 'openai/gpt-4o-mini' }).`,
    );
  }
  checkOptions<SummarizeStrategyOptions>(options, `${factory}()`, [
    'model',
    'summarizer',
    'protectedTokens',
    'prompt',
    'maxSummaryTokens',
  ]);
  const o = options as Partial<SummarizeStrategyOptions>;
  const hasModel = o.model !== undefined && o.model !== null && o.model !== '';
  if (o.summarizer !== undefined && !isSummarizer(o.summarizer)) {
    throw configError(
      `${factory}(): summarizer must have a summarize() method, such as new LLMSummarizer({ model }) or new TruncatingSummarizer().`,
    );
  }
  if (hasModel === (o.summarizer !== undefined)) {
    throw configError(
      `${factory}(): pass either model (e.g. ${factory}({ model: 'openai/gpt-4o-mini' })) or summarizer (e.g. new LLMSummarizer({ model })), not ${hasModel ? 'both' : 'neither'}.`,
    );
  }
  if (o.protectedTokens !== undefined && (typeof o.protectedTokens !== 'number' || !(o.protectedTokens >= 0))) {
    throw configError(`${factory}(): protectedTokens must be a number >= 0, got ${String(o.protectedTokens)}.`);
  }
  if (o.maxSummaryTokens !== undefined && (!Number.isInteger(o.maxSummaryTokens) || o.maxSummaryTokens <= 0)) {
    throw configError(`${factory}(): maxSummaryTokens must be a positive integer, got ${String(o.maxSummaryTokens)}.`);
  }
  if (o.prompt !== undefined && (typeof o.prompt !== 'string' || o.prompt.trim() === '')) {
    throw configError(`${factory}(): prompt must be a non-empty string.`);
  }
}

/** One summary of `messages`: by the options' Summarizer, or one call to the model. Rejects on no text. */
async function writeSummary(
  messages: readonly Message[],
  options: SummarizeStrategyOptions,
  getProvider: () => LLMProvider,
  input: CompactionInput,
): Promise<string> {
  if (options.summarizer !== undefined) {
    const text = await options.summarizer.summarize(messages, {
      toText: renderMessage,
      abortSignal: input.abortSignal,
      onModelCall: input.onModelCall,
    });
    return summaryText(text, 'The summarizer');
  }
  return summarizeWithModel(getProvider(), serializeTranscript(messages), {
    prompt: options.prompt,
    maxOutputTokens: options.maxSummaryTokens,
    abortSignal: input.abortSignal,
    onModelCall: input.onModelCall,
  });
}

/** Runs the summary on `input`; on failure falls back to pruning and reports the error. */
export async function summarizeOrPrune(
  input: CompactionInput,
  options: SummarizeStrategyOptions,
  getProvider: () => LLMProvider,
): Promise<CompactionResult> {
  const { messages } = input;
  const protectedTokens = ownProtectedTokens(options.protectedTokens, input);
  const summarized = planSummary(messages, protectedTokens, messageCounter(input));
  const tokensBefore = input.estimateTokens(messages);
  if (summarized.length === 0) return { messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds: [] };
  try {
    const folded = summarized.map((i) => messages[i] as Message);
    const summary = await writeSummary(folded, options, getProvider, input);
    const out = applySummary(messages, summarized, summaryMessage(summary));
    return { messages: out, tokensBefore, tokensAfter: input.estimateTokens(out), prunedToolCallIds: [], summary };
  } catch (cause) {
    const pruned = pruneToolResults({ ...input, protectedTokens });
    const error = toError(cause);
    return { ...pruned, tokensBefore, error, appliedStrategy: 'prune-tool-results' };
  }
}

/** A provider resolved on first use, so a bad spec fails at compaction time, not at import. */
export function lazyProvider(model: ModelSpec | undefined): () => LLMProvider {
  let provider: LLMProvider | undefined;
  return () => {
    if (model === undefined) throw configError('No summarizer model was given.');
    provider ??= resolveProvider(model);
    return provider;
  };
}

/**
 * Replaces the turns before the protected tail with one user message
 * `[Conversation summary]\n<summary>` written by `model`. System and pinned messages stay
 * in place; an assistant turn is folded or kept with all its results; the last message
 * and the latest assistant turn are always kept. When the summary call fails or returns
 * nothing, it prunes instead and returns the failure as `error`; a summary that leaves the
 * request above the threshold is rejected and the prune kept (summaryGuard(), which every
 * path applies around a strategy with a `fallback`).
 *
 * @example
 * summarizeStrategy({ model: 'openai/gpt-4o-mini', maxSummaryTokens: 1_000 });
 */
export function summarizeStrategy(options: SummarizeStrategyOptions): CompactionStrategy {
  validateSummarizeOptions(options, 'summarizeStrategy');
  const getProvider = lazyProvider(options.model);
  return {
    name: SUMMARIZE_STRATEGY_NAME,
    fallback: ownPruneStrategy(options.protectedTokens),
    compact: (input) => summarizeOrPrune(input, options, getProvider),
  };
}
