import { type CompactionHookOptions, createCompactionHook } from '../compaction/compaction-hook.js';
import { HOOK_KEYS } from '../compaction/hook-options.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import { MemoryPrunedResultStore } from '../compaction/pruned-store.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import { isSummarizer } from '../core/summarizer.js';
import { describe } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type { Tool } from '../executor/tool.js';
import { isLLMProvider } from '../providers/resolve-provider.js';
import type { CompactionConfig, CreateAgentOptions } from './agent-types.js';
import { recallTool } from './recall-tool.js';

/** What createAgent({ compaction }) takes: the hook's options, plus `summarizer`. */
const COMPACTION_KEYS = new Set<string>([...HOOK_KEYS, 'summarizer']);

/**
 * What a compaction option (createAgent's, or a session's) stands for: the hook's options
 * with the strategy resolved (a summarizer selects twoPhaseStrategy()), or undefined when it
 * is off. Throws LOUSHO_CONFIG_INVALID on a bad value.
 */
export function compactionOptionsFor(
  compaction: unknown,
): (CompactionHookOptions & { strategy: CompactionStrategy }) | undefined {
  if (compaction === undefined || compaction === false) return undefined;
  if (compaction === true) return { strategy: pruneToolResultsStrategy() };
  if (typeof compaction !== 'object' || compaction === null) {
    throw configError(
      'compaction must be true, false or an object such as { thresholdPercent: 0.8, summarizer: "openai/gpt-4o-mini" }.',
    );
  }
  const unknown = Object.keys(compaction).filter((k) => !COMPACTION_KEYS.has(k));
  if (unknown.length > 0) {
    throw configError(
      `compaction has unknown option ${unknown.map((k) => `'${k}'`).join(', ')}; it takes ${[...COMPACTION_KEYS].join(', ')}.`,
    );
  }
  const { summarizer, strategy, ...rest } = compaction as CompactionConfig;
  if (
    summarizer !== undefined &&
    typeof summarizer !== 'string' &&
    !isSummarizer(summarizer) &&
    !isLLMProvider(summarizer)
  ) {
    throw configError(
      `summarizer must be a "provider/model" string, an LLMProvider or a Summarizer (new LLMSummarizer({ model }), new TruncatingSummarizer()), got ${describe(summarizer)}.`,
      { option: 'summarizer' },
    );
  }
  if (summarizer !== undefined && strategy !== undefined) {
    throw configError(
      'compaction: summarizer and strategy cannot be combined. Pass strategy: twoPhaseStrategy({ model }) instead of summarizer, or drop strategy.',
    );
  }
  const resolved =
    strategy ??
    (summarizer === undefined
      ? pruneToolResultsStrategy()
      : isSummarizer(summarizer)
        ? twoPhaseStrategy({ summarizer })
        : twoPhaseStrategy({ model: summarizer }));
  // One store for the hook and the recall tool the agent registers.
  const recall = rest.recall === true ? new MemoryPrunedResultStore() : rest.recall;
  return { ...rest, ...(recall === undefined ? {} : { recall }), strategy: resolved };
}

/** The recall tool a compaction option needs registered, if any. */
export function recallToolsFor(compaction: CompactionHookOptions | undefined): Tool<unknown, unknown>[] {
  const store = compaction?.recall;
  return typeof store === 'object' && store !== null ? [recallTool(store) as unknown as Tool<unknown, unknown>] : [];
}

/** The compaction hook a compaction option installs, or undefined for none. */
export function hookFor(options: CompactionHookOptions | undefined): AgentHook | undefined {
  return options === undefined ? undefined : createCompactionHook(options);
}

/** Folds the top-level `summarizer` shorthand into the compaction option. */
export function withSummarizer(
  compaction: CreateAgentOptions['compaction'],
  summarizer: CreateAgentOptions['summarizer'],
) {
  if (summarizer === undefined) return compaction;
  if (compaction === false)
    throw configError('createAgent(): summarizer turns compaction on; remove it, or remove compaction: false.');
  const base = typeof compaction === 'object' && compaction !== null ? compaction : {};
  if (base.summarizer !== undefined || base.strategy !== undefined) {
    throw configError(
      'createAgent(): pass the summarizer once, either as summarizer or inside compaction (not with compaction.strategy).',
    );
  }
  return { ...base, summarizer };
}
