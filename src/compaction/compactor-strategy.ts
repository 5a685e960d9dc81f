import { Compactor, type MessageAdapter } from '../core/compaction.js';
import { isSummarizer, type Summarizer } from '../core/summarizer.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { isPinned } from '../messages/pin.js';
import { renderMessage } from '../messages/render.js';
import { MESSAGE_TURN_ACCESS } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { summaryMessage } from './summarize.js';
import { type CompactionStrategy, messageCounter } from './types.js';

/** The name compactorStrategy() reports in compaction events. */
export const COMPACTOR_STRATEGY_NAME = 'compactor';
const DEFAULT_TARGET_SHARE = 0.6;

/** Options of compactorStrategy(): the core Compactor as a strategy of the compaction hook. */
export interface CompactorStrategyOptions {
  /** The newest messages never drained or summarized. Default 4. */
  tailMessages?: number;
  /**
   * The share of the hook's threshold to compact down to. Default 0.6: getting well under the
   * threshold in one batch means the next compaction is many steps away, so the prompt cache
   * keeps serving the transcript in between (a compaction rewrites it).
   */
  targetShare?: number;
  /** Writes the summary of stage 2: a TruncatingSummarizer (default) or an LLMSummarizer. */
  summarizer?: Summarizer<Message>;
  /**
   * 'delete' (the default, the seed's drain): stage 1 deletes the oldest turns. 'fold': they go
   * to the summary with the rest of the head instead, so an early fact survives without pinning.
   */
  drain?: 'delete' | 'fold';
}

/** The Compactor's adapter for this library's Message type: system and pinned messages are protected. */
export function messageAdapter(countTokens: (message: Message) => number): MessageAdapter<Message> {
  return {
    countTokens,
    toText: renderMessage,
    summaryMessage,
    callIds: MESSAGE_TURN_ACCESS.callIds,
    resultId: MESSAGE_TURN_ACCESS.resultId,
    isProtected: (m) => m.role === 'system' || isPinned(m),
    isSummary: (m) => m.metadata?.summary === true,
  };
}

/**
 * The core Compactor (drain the oldest turns, then summarize the rest of the head, the
 * newest `tailMessages` untouched) as a strategy of the compaction hook. The hook calls it
 * above its threshold; it compacts down to `targetShare` (60%) of that threshold.
 *
 * @example
 * createCompactionHook({ strategy: compactorStrategy({ summarizer: new LLMSummarizer({ model: resolveProvider('openai/gpt-4o-mini') }) }) });
 */
export function compactorStrategy(options: CompactorStrategyOptions = {}): CompactionStrategy {
  const where = 'compactorStrategy()';
  if (typeof options === 'object' && options !== null && 'targetPercent' in options)
    throw configError(
      `${where}: targetPercent is now targetShare (the same share of the threshold, in (0, 1]); rename it.`,
      {
        option: 'targetPercent',
      },
    );
  checkOptions<CompactorStrategyOptions>(options, where, ['tailMessages', 'targetShare', 'summarizer', 'drain']);
  if (options.drain !== undefined && options.drain !== 'delete' && options.drain !== 'fold') {
    throw configError(`${where}: drain must be 'delete' (the default) or 'fold', got ${String(options.drain)}.`, {
      option: 'drain',
    });
  }
  checkNumber(options.tailMessages, 'tailMessages', where, { min: 0, integer: true });
  checkNumber(options.targetShare, 'targetShare', where, { min: 0, exclusiveMin: true, max: 1 });
  if (options.summarizer !== undefined && !isSummarizer(options.summarizer)) {
    throw configError(
      `${where}: summarizer must have a summarize() method, such as new LLMSummarizer({ model }) or new TruncatingSummarizer().`,
      { option: 'summarizer' },
    );
  }
  return {
    name: COMPACTOR_STRATEGY_NAME,
    fallback: pruneToolResultsStrategy(),
    async compact(input) {
      const tokensBefore = input.estimateTokens(input.messages);
      // Like the Compactor itself: nothing to do at or below the threshold.
      if (tokensBefore <= input.thresholdTokens) {
        return { messages: input.messages, tokensBefore, tokensAfter: tokensBefore, prunedToolCallIds: [] };
      }
      const fixed = input.estimateTokens([]);
      const budgetTokens = Math.max(1, input.contextWindow - fixed);
      const target = input.thresholdTokens * (options.targetShare ?? DEFAULT_TARGET_SHARE);
      const softThreshold = Math.min(1, Math.max(0.01, (target - fixed) / budgetTokens));
      const compactor = new Compactor<Message>({
        adapter: messageAdapter(messageCounter(input)),
        budgetTokens,
        softThreshold,
        ...(options.tailMessages === undefined ? {} : { tailMessages: options.tailMessages }),
        ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
        ...(options.drain === undefined ? {} : { drain: options.drain }),
      });
      const result = await compactor.recover(input.messages, {
        ...(input.abortSignal === undefined ? {} : { abortSignal: input.abortSignal }),
        ...(input.onModelCall === undefined ? {} : { onModelCall: input.onModelCall }),
      });
      return {
        messages: result.messages,
        tokensBefore: fixed + result.tokensBefore,
        tokensAfter: fixed + result.tokensAfter,
        prunedToolCallIds: [],
        ...(result.summary === undefined ? {} : { summary: result.summary }),
        ...(result.error === undefined ? {} : { error: result.error }),
      };
    },
  };
}
