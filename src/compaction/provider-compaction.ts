import type { LLMProvider, ModelSpec } from '../contracts/llm-provider.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { configError, toError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { ownPruneStrategy } from './prune-tool-results.js';
import { ownProtectedTokens } from './sizes.js';
import { lazyProvider } from './summarize.js';
import { planSummary } from './summary-plan.js';
import {
  type CompactionInput,
  type CompactionResult,
  type CompactionStrategy,
  isCompactionStrategy,
  messageCounter,
} from './types.js';

/** The name providerCompactionStrategy() reports in compaction events. */
export const PROVIDER_COMPACTION_STRATEGY_NAME = 'provider-compaction';

/** Options of {@link providerCompactionStrategy}. */
export interface ProviderCompactionStrategyOptions {
  /**
   * What runs where the provider cannot compact (it has no `compact()`, a pinned message
   * comes before the turns to compact, or the call failed). pruneToolResultsStrategy() when absent.
   */
  fallback?: CompactionStrategy;
  /**
   * The provider that compacts: an LLMProvider or a "provider/model" spec. When absent, the
   * run's own provider (session.compact(): the agent's; compactMessages(): its `model` when
   * that is an LLMProvider), which is what you want: only the provider that wrote a
   * compaction can read it.
   */
  model?: ModelSpec;
  /** Recent tokens kept as they are; the hook's protectedTokens when absent. */
  protectedTokens?: number;
  /** maxOutputTokens of the compaction call (Anthropic's max_tokens); the provider's default when absent. */
  maxSummaryTokens?: number;
}

/**
 * The turns the provider compacts: the whole turns a summary may replace (see planSummary)
 * from the first message after the leading system messages, up to the first message that
 * must stay (a pinned or system message, the protected tail). Undefined when a pinned
 * message comes first, since a provider's compaction must open the conversation.
 */
function compactableSpan(input: CompactionInput, protectedTokens: number): { start: number; end: number } | undefined {
  const { messages } = input;
  const summarized = planSummary(messages, protectedTokens, messageCounter(input));
  const start = summarized[0];
  if (start === undefined) return undefined;
  for (let i = 0; i < start; i++) if (messages[i]?.role !== 'system') return undefined;
  let end = start;
  while (summarized[end - start] === end) end++;
  return { start, end };
}

async function useFallback(fallback: CompactionStrategy, input: CompactionInput): Promise<CompactionResult> {
  const result = await fallback.compact(input);
  return { ...result, appliedStrategy: result.appliedStrategy ?? fallback.name };
}

function checkStrategyOptions(options: unknown): asserts options is ProviderCompactionStrategyOptions {
  if (typeof options !== 'object' || options === null)
    throw configError(
      'providerCompactionStrategy() takes an options object, e.g. providerCompactionStrategy({ fallback }).',
    );
  checkOptions<ProviderCompactionStrategyOptions>(options, 'providerCompactionStrategy()', [
    'fallback',
    'model',
    'protectedTokens',
    'maxSummaryTokens',
  ]);
  const o = options as ProviderCompactionStrategyOptions;
  if (o.fallback !== undefined && !isCompactionStrategy(o.fallback))
    throw configError(
      'providerCompactionStrategy(): fallback must be a compaction strategy, e.g. twoPhaseStrategy({ model }).',
      { option: 'fallback' },
    );
  checkNumber(o.protectedTokens, 'protectedTokens', 'providerCompactionStrategy()', { min: 0 });
  checkNumber(o.maxSummaryTokens, 'maxSummaryTokens', 'providerCompactionStrategy()', { min: 1, integer: true });
}

/**
 * Hands compaction to the provider where it offers it: the turns before the protected tail
 * go to the provider's `compact()` (OpenAI's `/responses/compact`, Anthropic's on-demand
 * compaction) and the window it returns takes their place, holding the provider's compaction
 * (readable only by that provider; `summary` is its text, or '' when it is encrypted).
 * System messages stay ours; the tail stays as it is. Where the provider cannot compact
 * (no `compact()`, a pinned message first) `fallback` runs instead; when its call fails,
 * `fallback` runs and the failure is the result's `error`. The same compaction.start /
 * compaction.done events and onCompaction as every strategy; never chosen by name.
 *
 * @example
 * createAgent({
 *   model: 'openai-responses/gpt-5-mini',
 *   compaction: { strategy: providerCompactionStrategy({ fallback: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }) }) },
 * });
 */
export function providerCompactionStrategy(options: ProviderCompactionStrategyOptions = {}): CompactionStrategy {
  checkStrategyOptions(options);
  const own = options.model === undefined ? undefined : lazyProvider(options.model);
  const fallback = options.fallback ?? ownPruneStrategy(options.protectedTokens);
  return {
    name: PROVIDER_COMPACTION_STRATEGY_NAME,
    fallback: fallback.fallback ?? ownPruneStrategy(options.protectedTokens),
    async compact(input) {
      const provider: LLMProvider | undefined = own?.() ?? input.provider;
      const span = compactableSpan(input, ownProtectedTokens(options.protectedTokens, input));
      if (provider?.compact === undefined || span === undefined) return useFallback(fallback, input);
      const { messages } = input;
      const tokensBefore = input.estimateTokens(messages);
      const startTime = Date.now();
      try {
        const response = await provider.compact({
          model: provider.modelId,
          messages: messages.slice(0, span.end),
          ...(input.tools === undefined ? {} : { tools: [...input.tools] }),
          ...(options.maxSummaryTokens === undefined ? {} : { maxOutputTokens: options.maxSummaryTokens }),
          ...(input.cacheKey === undefined ? {} : { cacheKey: input.cacheKey }),
          ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
        });
        input.onModelCall?.({
          provider: provider.provider,
          model: response.modelId ?? provider.modelId,
          usage: response.usage,
          purpose: 'compaction',
          startTime,
          endTime: Date.now(),
        });
        const out: Message[] = [...messages.slice(0, span.start), ...response.messages, ...messages.slice(span.end)];
        return {
          messages: out,
          tokensBefore,
          tokensAfter: input.estimateTokens(out),
          prunedToolCallIds: [],
          summary: response.summary ?? '',
        };
      } catch (cause) {
        const result = await useFallback(fallback, input);
        return { ...result, error: toError(cause) };
      }
    },
  };
}
