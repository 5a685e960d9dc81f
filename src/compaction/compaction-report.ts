/**
 * What a compaction reports: its compaction.start / compaction.done events and what
 * onCompaction receives, built from a CompactionOutcome.
 */
import type { CompactionDoneEvent, CompactionStartEvent } from '../contracts/agent-event.js';
import type { CompactionOutcome } from './run-compaction.js';

/** What onCompaction receives: what the compaction did, and the sizes it worked with. */
export interface CompactionInfo
  extends Pick<
    CompactionOutcome,
    'strategy' | 'appliedStrategy' | 'tokensBefore' | 'tokensAfter' | 'prunedToolCallIds' | 'summary' | 'error'
  > {
  /** The model's context window in tokens, as the compaction resolved it. */
  contextWindow: number;
  /** The threshold in tokens: the request is compacted above it, and a summary must bring it under. */
  thresholdTokens: number;
}

/** Where a compaction happened, for its events: a run's step, or a manual compaction. */
export interface CompactionWhere {
  runId?: string;
  step?: number;
  trigger?: 'manual' | 'overflow';
}

/** The compaction.start event of a compaction about to run. */
export function compactionStartEvent(
  where: CompactionWhere,
  fields: { strategy: string; tokensBefore: number; contextWindow: number; thresholdTokens: number },
): CompactionStartEvent {
  return { type: 'compaction.start', ...where, ...fields };
}

/** The compaction.done event of an outcome (the summary text is left out: onCompaction has it). */
export function compactionDoneEvent(where: CompactionWhere, outcome: CompactionOutcome): CompactionDoneEvent {
  const { runId, step, trigger } = where;
  return {
    type: 'compaction.done',
    ...(runId === undefined ? {} : { runId }),
    ...(step === undefined ? {} : { step }),
    strategy: outcome.strategy,
    ...(outcome.appliedStrategy === undefined ? {} : { appliedStrategy: outcome.appliedStrategy }),
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    prunedToolCallIds: outcome.prunedToolCallIds,
    ...(outcome.summary === undefined ? {} : { summary: true }),
    ...(outcome.error === undefined ? {} : { error: { message: outcome.error.message } }),
    ...(outcome.changed ? {} : { unchanged: true as const }),
    ...(trigger === undefined ? {} : { trigger }),
  };
}

/** What onCompaction receives for an outcome. */
export function compactionInfo(
  outcome: CompactionOutcome,
  sizes: { contextWindow: number; thresholdTokens: number },
): CompactionInfo {
  return { ...reportedFields(outcome), contextWindow: sizes.contextWindow, thresholdTokens: sizes.thresholdTokens };
}

/** What a compaction reports to its caller (onCompaction, compactMessages()): the outcome without its bookkeeping. */
export function reportedFields(outcome: CompactionOutcome): Omit<CompactionInfo, 'contextWindow' | 'thresholdTokens'> {
  return {
    strategy: outcome.strategy,
    ...(outcome.appliedStrategy === undefined ? {} : { appliedStrategy: outcome.appliedStrategy }),
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    prunedToolCallIds: outcome.prunedToolCallIds,
    ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}
