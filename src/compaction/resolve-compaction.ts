import { isSummarizer } from '../core/summarizer.js';
import { describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { isLLMProvider } from '../providers/resolve-provider.js';
import type { CompactionConfig } from './compaction-options.js';
import type { CompactionInfo } from './compaction-report.js';
import { withLayers, withOverflowLayers } from './layers.js';
import { overflowRecoveryStrategy } from './overflow-recovery.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { isPrunedResultStore, MemoryPrunedResultStore, type PrunedResultStore } from './pruned-store.js';
import { DEFAULT_THRESHOLD_PERCENT } from './sizes.js';
import { twoPhaseStrategy } from './two-phase.js';
import { type CompactionStrategy, isCompactionStrategy } from './types.js';

const RESOLVED = Symbol.for('lousho.compaction.resolved');

/**
 * A compaction option, checked and resolved once: the strategy with every layer that is on
 * around it (what the hook, session.compact() and compactMessages() run), the overflow
 * recovery with the layers that apply to it, and the sizes' options. Frozen.
 */
export interface ResolvedCompaction {
  readonly [RESOLVED]: true;
  /** The options as given, checked (a `recall: true` already made its store), to resolve again with changes. */
  readonly options: Readonly<CompactionConfig>;
  /** The layered strategy. */
  readonly strategy: CompactionStrategy;
  /** The layered overflow recovery; undefined when overflowRecovery is false. */
  readonly overflow: CompactionStrategy | undefined;
  readonly thresholdPercent: number;
  readonly contextWindow: number | undefined;
  readonly protectedTokens: number | undefined;
  readonly reserveOutputTokens: number;
  readonly onCompaction: ((info: CompactionInfo) => void) | undefined;
  /** The store of reversible pruning, whose recall tool the agent registers. */
  readonly recall: PrunedResultStore | undefined;
}

/** Whether `value` is a ResolvedCompaction. */
export function isResolvedCompaction(value: unknown): value is ResolvedCompaction {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RESOLVED] === true;
}

type Check = (value: unknown) => string | undefined;
const share =
  (of: string): Check =>
  (v) =>
    typeof v === 'number' && v > 0 && v <= 1 ? undefined : `a share of ${of} in (0, 1], such as 0.8`;
const tokens: Check = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'a number of tokens >= 0';
const flag: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');

/** The kind of every option: what it must be, said the way the refusal says it. */
const KINDS: Record<keyof CompactionConfig, Check> = {
  strategy: (v) =>
    isCompactionStrategy(v)
      ? undefined
      : 'a CompactionStrategy, an object with a name and a compact() function, such as pruneToolResultsStrategy() or twoPhaseStrategy({ model })',
  summarizer: (v) =>
    typeof v === 'string' || isSummarizer(v) || isLLMProvider(v)
      ? undefined
      : 'a "provider/model" string, an LLMProvider or a Summarizer (new LLMSummarizer({ model }), new TruncatingSummarizer())',
  thresholdPercent: share('the context window'),
  contextWindow: (v) =>
    typeof v === 'number' && Number.isInteger(v) && v > 0
      ? undefined
      : 'a positive whole number of tokens, such as 8_192',
  protectedTokens: tokens,
  reserveOutputTokens: tokens,
  onCompaction: (v) => (typeof v === 'function' ? undefined : 'a function'),
  mode: (v) => (v === 'default' || v === 'lean' ? undefined : "'default' or 'lean'"),
  recall: (v) =>
    typeof v === 'boolean' || isPrunedResultStore(v)
      ? undefined
      : 'true, false or a PrunedResultStore (an object with save() and load())',
  digestChars: (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 0
      ? undefined
      : 'a whole number of characters >= 0, such as 1000',
  lowWaterMark: share('the threshold'),
  fold: flag,
  minimumGain: share('the threshold'),
  pruneReasoning: flag,
  overflowRecovery: flag,
};

/** Throws LOUSHO_CONFIG_INVALID, naming `where`, for an option that is not of its kind or not known. */
function checkKinds(options: object, where: string): void {
  for (const [option, value] of Object.entries(options)) {
    const check = KINDS[option as keyof CompactionConfig];
    if (check === undefined)
      throw configError(
        `${where}: compaction has unknown option '${option}'; it takes ${Object.keys(KINDS).join(', ')}.`,
        { option },
      );
    if (value === undefined) continue;
    const wanted = check(value);
    if (wanted !== undefined)
      throw configError(`${where}: ${option} must be ${wanted}; got ${describe(value)}.`, { option });
  }
}

/** The strategy the options choose: `strategy`, else two-phase with `summarizer`, else pruning (digest markers in lean mode). */
function chosenStrategy(o: CompactionConfig, where: string): CompactionStrategy {
  if (o.summarizer !== undefined && o.strategy !== undefined)
    throw configError(
      `${where}: summarizer and strategy cannot be combined. Pass strategy: twoPhaseStrategy({ model }) instead of summarizer, or drop strategy.`,
    );
  if (o.strategy !== undefined) return o.strategy;
  if (o.summarizer !== undefined)
    return isSummarizer(o.summarizer)
      ? twoPhaseStrategy({ summarizer: o.summarizer })
      : twoPhaseStrategy({ model: o.summarizer });
  const digest = o.digestChars === undefined ? {} : { digestChars: o.digestChars };
  return pruneToolResultsStrategy(o.mode === 'lean' ? { marker: 'digest', ...digest } : {});
}

/**
 * Checks a compaction option (true, or an object of CompactionConfig) against one table of
 * option kinds and resolves it once (see {@link ResolvedCompaction}). Throws
 * LOUSHO_CONFIG_INVALID naming `where` and the option. A resolved value is returned as it is.
 */
export function resolveCompaction(
  options: true | CompactionConfig | ResolvedCompaction,
  where: string,
): ResolvedCompaction {
  if (isResolvedCompaction(options)) return options;
  const o: CompactionConfig = options === true ? {} : options;
  if (typeof o !== 'object' || o === null)
    throw configError(
      `${where}: compaction must be true, false or an object such as { thresholdPercent: 0.8, summarizer: "openai/gpt-4o-mini" }.`,
    );
  checkKinds(o, where);
  if (o.digestChars !== undefined && o.mode !== 'lean')
    throw configError(
      `${where}: digestChars sizes lean mode's digest markers; add mode: 'lean', or for the default mode pass ` +
        `strategy: pruneToolResultsStrategy({ marker: 'digest', digestChars: ${o.digestChars} }).`,
      { option: 'digestChars' },
    );
  const reserve = o.reserveOutputTokens ?? 0;
  if (o.contextWindow !== undefined && reserve >= o.contextWindow)
    throw configError(
      `${where}: reserveOutputTokens (${reserve}) must be below contextWindow (${o.contextWindow}); it is the part of the window kept for the reply.`,
      { option: 'reserveOutputTokens' },
    );
  const recall = o.recall === true ? new MemoryPrunedResultStore() : o.recall || undefined;
  const checked: CompactionConfig = { ...o, ...(recall === undefined ? {} : { recall }) };
  return Object.freeze({
    [RESOLVED]: true as const,
    options: Object.freeze(checked),
    strategy: withLayers(chosenStrategy(o, where), checked, recall),
    overflow:
      o.overflowRecovery === false ? undefined : withOverflowLayers(overflowRecoveryStrategy(), checked, recall),
    thresholdPercent: o.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT,
    contextWindow: o.contextWindow,
    protectedTokens: o.protectedTokens,
    reserveOutputTokens: reserve,
    onCompaction: o.onCompaction,
    recall,
  });
}

/** A resolved compaction with some options changed (session.compact(options) over the session's); a strategy given replaces a summarizer. */
export function withChanges(
  resolved: ResolvedCompaction | undefined,
  changes: CompactionConfig,
  where: string,
): ResolvedCompaction {
  const merged: CompactionConfig = { ...resolved?.options };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(merged, { [key]: value });
  if (changes.strategy !== undefined) delete merged.summarizer;
  return resolveCompaction(merged, where);
}
