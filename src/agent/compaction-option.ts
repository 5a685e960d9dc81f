import { createCompactionHook } from '../compaction/compaction-hook.js';
import { type ResolvedCompaction, resolveCompaction } from '../compaction/resolve-compaction.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import { configError } from '../errors/lousho-error.js';
import type { Tool } from '../executor/tool.js';
import type { CreateAgentOptions } from './agent-types.js';
import { recallTool } from './recall-tool.js';

/**
 * What a compaction option (createAgent's, or a session's) stands for, resolved once
 * (resolveCompaction(): a summarizer selects twoPhaseStrategy(), the layers that are on
 * around it), or undefined when it is off. Throws LOUSHO_CONFIG_INVALID on a bad value.
 */
export function compactionOptionsFor(compaction: unknown, where = 'createAgent()'): ResolvedCompaction | undefined {
  if (compaction === undefined || compaction === false) return undefined;
  return resolveCompaction(compaction as Parameters<typeof resolveCompaction>[0], where);
}

/** The recall tool a compaction option needs registered, if any. */
export function recallToolsFor(compaction: ResolvedCompaction | undefined): Tool<unknown, unknown>[] {
  const store = compaction?.recall;
  return store === undefined ? [] : [recallTool(store) as unknown as Tool<unknown, unknown>];
}

/** The compaction hook a compaction option installs, or undefined for none. */
export function hookFor(compaction: ResolvedCompaction | undefined): AgentHook | undefined {
  return compaction === undefined ? undefined : createCompactionHook(compaction);
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
