import type { ModelSpec } from '../contracts/llm-provider.js';
import type { Summarizer } from '../core/summarizer.js';
import type { Message } from '../messages/types.js';
import type { CompactionInfo } from './compaction-report.js';
import type { PrunedResultStore } from './pruned-store.js';
import type { CompactionStrategy } from './types.js';

/**
 * The opt-in layers around a strategy. None is on by default: the hook then runs the
 * strategy exactly as it is. Each is a strategy that wraps another (see layers.ts), applied
 * in one place (withLayers()) on every path: the hook, the overflow recovery where it
 * applies, session.compact() and compactMessages().
 */
export interface CompactionLayers {
  /**
   * Aim lower than the threshold: the strategy is asked to get the request under this share
   * of the threshold (a summary is still judged against the threshold itself), so the next
   * compaction comes later. Pick it with a summarizer on a long run, where every compaction
   * re-sends the transcript after its first change: fewer, larger compactions cost less. It
   * changes nothing for pruning alone, which takes every old result whatever the target.
   */
  lowWaterMark?: number;
  /**
   * Fold the oldest turns into one short marker turn (their calls listed, their text gone)
   * when a compaction leaves the request above the low-water mark (`lowWaterMark`, else half
   * the threshold), down to it. No model call. Pick it for long runs without a summarizer,
   * where pruning alone leaves every turn and marker in place and each crossing of the
   * threshold comes sooner than the last.
   */
  fold?: boolean;
  /**
   * Apply a compaction only when it frees at least this share of the threshold; else leave
   * the transcript as it is and wait until the request has grown by what was missing. Pick
   * it when the prompt cache matters: a compaction that frees little breaks the cache for
   * little.
   */
  minimumGain?: number;
  /**
   * When a compaction runs, also prune the reasoning of the turns before the newest (outside
   * the protected tail): signed or encrypted reasoning (Anthropic thinking, OpenAI reasoning
   * items) is dropped, plain reasoning text (DeepSeek, OpenRouter) becomes a short marker; the
   * newest turn's reasoning, which a provider needs to continue a tool-using turn, stays.
   * Pick it with reasoning models whose old reasoning is sent back and billed as input.
   */
  pruneReasoning?: boolean;
}

/** Options of createCompactionHook() (and of createAgent({ compaction }), which also takes `summarizer`). */
export interface CompactionHookOptions extends CompactionLayers {
  /** How to compact; pruneToolResultsStrategy() by default. twoPhaseStrategy() is recommended. */
  strategy?: CompactionStrategy;
  /** Compact when the estimated request is above this share of the context window. In (0, 1]; default 0.9. */
  thresholdPercent?: number;
  /** Context window in tokens; by default looked up for request.model, else 128,000 with a one-time warning. */
  contextWindow?: number;
  /** The newest messages that fit in this many tokens are never changed. Default 40,000, at most half the threshold. */
  protectedTokens?: number;
  /** Tokens kept free for the reply: the threshold becomes at most contextWindow - reserveOutputTokens. */
  reserveOutputTokens?: number;
  /** Called after each compaction that changed the conversation or reported an error. */
  onCompaction?: (info: CompactionInfo) => void;
  /**
   * 'lean': at every step, prune each tool result as soon as the model has answered it,
   * with a digest marker that keeps the names it showed (only the newest turn, and
   * `protectedTokens` when you set it, stay whole); the strategy (by default
   * pruneToolResultsStrategy({ marker: 'digest' })) and the fold still run above the threshold.
   * Each prune only rewrites the end of the transcript, so the prompt cache keeps the rest:
   * the cheapest mode, at the price of the model seeing old outputs only as their digest.
   * 'default' (or absent): compact only above the threshold.
   */
  mode?: 'default' | 'lean';
  /**
   * Lean mode only: characters of each digest marker's list of names (default 160, about 40
   * tokens). More keeps more of what old results showed, for a higher bill (docs/compaction.md).
   */
  digestChars?: number;
  /**
   * Keep the original of every pruned result and offer the model `recall_tool_result`
   * (once something was pruned) to bring one back by the call id its marker names: true keeps
   * them in memory, or pass a PrunedResultStore. createAgent() registers the tool; with
   * createCompactionHook() register `recallTool(store)` among your tools yourself.
   */
  recall?: boolean | PrunedResultStore;
  /**
   * What happens when a request does not fit the context window at all (the threshold is
   * below it, so this is rare: pruning alone could not keep a long run inside it): true (the
   * default) runs the overflow recovery, which prunes and folds the oldest turns down to 60%
   * of the window, then cuts the newest turn's results if it must, announced by
   * compaction.start / compaction.done with trigger 'overflow' and onCompaction (strategy
   * 'overflow-recovery'); false refuses such a request with LOUSHO_CONTEXT_OVERFLOW instead.
   */
  overflowRecovery?: boolean;
}

/** What createAgent({ compaction }) and agent.session({ compaction }) take: the hook's options, plus `summarizer`. */
export interface CompactionConfig extends CompactionHookOptions {
  /**
   * The summarizer, typically a cheaper model than the agent's: a "provider/model" spec or an
   * LLMProvider selects twoPhaseStrategy({ model: summarizer }); a Summarizer (an LLMSummarizer or a
   * TruncatingSummarizer) selects twoPhaseStrategy({ summarizer }). Cannot be combined with `strategy`.
   */
  summarizer?: ModelSpec | Summarizer<Message>;
}
