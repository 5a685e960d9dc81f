import { Compactor, type MessageAdapter } from '../core/compaction.js';
import type { Summarizer } from '../core/summarizer.js';
import { isPinned } from '../messages/pin.js';
import { renderMessage } from '../messages/render.js';
import { MESSAGE_TURN_ACCESS } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { summaryMessage } from './summarize.js';
import { type CompactionStrategy, messageCounter } from './types.js';

export const COMPACTOR_STRATEGY_NAME = 'compactor';

export interface CompactorStrategyOptions {
  /** The newest messages never drained or summarized. Default 4. */
  tailMessages?: number;
  /** Writes the summary of stage 2: a TruncatingSummarizer (default) or an LLMSummarizer. */
  summarizer?: Summarizer<Message>;
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
  };
}

/**
 * The core Compactor (drain the oldest turns, then summarize the rest of the head, the
 * newest `tailMessages` untouched) as a strategy of the compaction hook. Its budget is the
 * hook's: it acts above the hook's threshold and aims to get under it.
 *
 * @example
 * createCompactionHook({ strategy: compactorStrategy({ summarizer: new LLMSummarizer({ model: 'openai/gpt-4o-mini' }) }) });
 */
export function compactorStrategy(options: CompactorStrategyOptions = {}): CompactionStrategy {
  return {
    name: COMPACTOR_STRATEGY_NAME,
    async compact(input) {
      const fixed = input.estimateTokens([]);
      const budgetTokens = Math.max(1, input.contextWindow - fixed);
      const softThreshold = Math.min(1, Math.max(0.01, (input.thresholdTokens - fixed) / budgetTokens));
      const compactor = new Compactor<Message>({
        adapter: messageAdapter(messageCounter(input)),
        budgetTokens,
        softThreshold,
        ...(options.tailMessages === undefined ? {} : { tailMessages: options.tailMessages }),
        ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
      });
      const result = await compactor.recover(input.messages, {
        ...(input.abortSignal === undefined ? {} : { signal: input.abortSignal }),
        ...(input.onModelCall === undefined ? {} : { onModelCall: input.onModelCall }),
      });
      return {
        messages: result.messages,
        tokensBefore: fixed + result.tokensBefore,
        tokensAfter: fixed + result.tokensAfter,
        prunedToolCallIds: [],
        ...(result.summary === undefined ? {} : { summary: result.summary }),
      };
    },
  };
}
