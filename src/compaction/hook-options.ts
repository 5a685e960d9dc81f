import type { PreGenerateContext } from '../contracts/agent-hook.js';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type { CompactionInfo } from './compaction-report.js';
import { type CompactionLayers, withLayers } from './layers.js';
import {
  checkContextWindow,
  checkStrategy,
  checkThresholdPercent,
  checkTokens,
  DEFAULT_THRESHOLD_PERCENT,
} from './options.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import {
  isPrunedResultStore,
  MemoryPrunedResultStore,
  type PrunedResultStore,
  RECALL_TOOL_DEFINITION,
  RECALL_TOOL_NAME,
} from './pruned-store.js';
import type { CompactionStrategy } from './types.js';

/** Sends the recall tool's definition with the request once something can be recalled, and not before. */
export function offerRecall(request: PreGenerateContext['request'], offer: boolean): void {
  const others = (request.tools ?? []).filter((t) => t.name !== RECALL_TOOL_NAME);
  if (offer) request.tools = [...others, RECALL_TOOL_DEFINITION];
  else if (others.length > 0) request.tools = others;
  else delete request.tools;
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
   * tokens). More keeps more of what old results showed, for a higher bill: on the corpus
   * replay at 16K, 160 bills 0.56x of no compaction and loses 5.3% of the names later commands
   * use; 1,000 bills 0.60x and loses 2.8% (docs/compaction.md has the curve).
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
   * of the window, announced by compaction.start / compaction.done with trigger 'overflow'
   * and onCompaction (strategy 'overflow-recovery'); false refuses such a request with
   * LOUSHO_CONTEXT_OVERFLOW instead.
   */
  overflowRecovery?: boolean;
}

/** The options createCompactionHook() takes. */
export const HOOK_KEYS: (keyof CompactionHookOptions)[] = [
  'strategy',
  'thresholdPercent',
  'contextWindow',
  'protectedTokens',
  'reserveOutputTokens',
  'onCompaction',
  'mode',
  'recall',
  'digestChars',
  'lowWaterMark',
  'fold',
  'minimumGain',
  'pruneReasoning',
  'overflowRecovery',
];

/** A result is pruned at every step in lean mode only when it has this many times its marker's tokens. */
export const LEAN_MIN_GAIN_RATIO = 3;

/**
 * The layers lean mode turns on, unless you set them: above the threshold it folds the
 * oldest turns down to half of it, and applies only compactions that free a tenth of it.
 */
export const LEAN_LAYERS: Required<Pick<CompactionLayers, 'fold' | 'minimumGain'>> = { fold: true, minimumGain: 0.1 };

function checkShare(value: unknown, option: string, where: string): void {
  if (value !== undefined && (typeof value !== 'number' || !(value > 0 && value <= 1)))
    throw configError(`${where}: ${option} must be a share of the threshold in (0, 1], such as 0.5.`, { option });
}

/** createCompactionHook()'s options, checked, with the defaults filled in. */
export function resolveHookOptions(options: CompactionHookOptions) {
  const where = 'createCompactionHook()';
  if (typeof options !== 'object' || options === null) throw configError(`${where} takes an options object.`);
  checkOptions<CompactionHookOptions>(options, where, HOOK_KEYS);
  const mode = options.mode ?? 'default';
  if (mode !== 'default' && mode !== 'lean') throw configError(`${where}: mode must be 'default' or 'lean'.`);
  const recall: PrunedResultStore | undefined =
    options.recall === true ? new MemoryPrunedResultStore() : options.recall || undefined;
  if (recall !== undefined && !isPrunedResultStore(recall)) {
    throw configError(
      `${where}: recall must be true, false or a PrunedResultStore (an object with save() and load()).`,
    );
  }
  const digestChars = options.digestChars;
  if (digestChars !== undefined) {
    if (!Number.isInteger(digestChars) || digestChars < 0) {
      throw configError(`${where}: digestChars must be a whole number of characters >= 0, such as 1000.`, {
        option: 'digestChars',
      });
    }
    if (mode !== 'lean') {
      throw configError(
        `${where}: digestChars sizes lean mode's digest markers; add mode: 'lean', or for the default mode pass ` +
          `strategy: pruneToolResultsStrategy({ marker: 'digest', digestChars: ${digestChars} }).`,
        { option: 'digestChars' },
      );
    }
  }
  const lean =
    mode === 'lean' ? { marker: 'digest' as const, ...(digestChars === undefined ? {} : { digestChars }) } : {};
  checkShare(options.lowWaterMark, 'lowWaterMark', where);
  checkShare(options.minimumGain, 'minimumGain', where);
  if (options.fold !== undefined && typeof options.fold !== 'boolean')
    throw configError(`${where}: fold must be true or false.`, { option: 'fold' });
  if (options.pruneReasoning !== undefined && typeof options.pruneReasoning !== 'boolean')
    throw configError(`${where}: pruneReasoning must be true or false.`, { option: 'pruneReasoning' });
  if (options.overflowRecovery !== undefined && typeof options.overflowRecovery !== 'boolean')
    throw configError(`${where}: overflowRecovery must be true or false.`, { option: 'overflowRecovery' });
  const chosen = checkStrategy(options.strategy, where) ?? pruneToolResultsStrategy(lean);
  const layers: CompactionLayers = {
    ...(mode === 'lean' ? LEAN_LAYERS : {}),
    ...(options.lowWaterMark === undefined ? {} : { lowWaterMark: options.lowWaterMark }),
    ...(options.fold === undefined ? {} : { fold: options.fold }),
    ...(options.minimumGain === undefined ? {} : { minimumGain: options.minimumGain }),
    ...(options.pruneReasoning === undefined ? {} : { pruneReasoning: options.pruneReasoning }),
  };
  const onCompaction = options.onCompaction;
  if (onCompaction !== undefined && typeof onCompaction !== 'function')
    throw configError(`${where}: onCompaction must be a function.`);
  const windowOption = checkContextWindow(options.contextWindow, where);
  const reserve = checkTokens(options.reserveOutputTokens, 'reserveOutputTokens', where) ?? 0;
  if (windowOption !== undefined && reserve >= windowOption) {
    throw configError(
      `${where}: reserveOutputTokens (${reserve}) must be below contextWindow (${windowOption}); it is the part of the window kept for the reply.`,
      { option: 'reserveOutputTokens' },
    );
  }
  return {
    mode,
    recall,
    lean,
    // The layers that are on, around the strategy; with none, the strategy as it is.
    strategy: withLayers(chosen, layers),
    fallback: chosen.fallback ?? pruneToolResultsStrategy(),
    overflowRecovery: options.overflowRecovery ?? true,
    percent: checkThresholdPercent(options.thresholdPercent, where) ?? DEFAULT_THRESHOLD_PERCENT,
    windowOption,
    protectedOption: checkTokens(options.protectedTokens, 'protectedTokens', where),
    reserve,
    onCompaction,
  };
}
