/** Reported before a compaction runs, inside the step and before the model call. */
export interface CompactionStartEvent {
  type: 'compaction.start';
  /** The run and step it happened in (absent for a manual compaction outside a run). */
  runId?: string;
  step?: number;
  /** The strategy that runs ('prune-tool-results' while summaries are paused). */
  strategy: string;
  /** Estimated request size before compaction, in tokens. */
  tokensBefore: number;
  contextWindow: number;
  thresholdTokens: number;
  trigger?: 'manual';
}

/** Reported once after each compaction.start. */
export interface CompactionDoneEvent {
  type: 'compaction.done';
  runId?: string;
  step?: number;
  strategy: string;
  /** The strategy whose result was kept, when it differs (a fallback or a rejected summary). */
  appliedStrategy?: string;
  tokensBefore: number;
  tokensAfter: number;
  prunedToolCallIds: string[];
  /** True when old turns were replaced by a summary (the text is passed to onCompaction only). */
  summary?: boolean;
  error?: { message: string };
  /** True when the strategy could not shrink anything. */
  unchanged?: true;
  trigger?: 'manual';
}

export type CompactionEvent = CompactionStartEvent | CompactionDoneEvent;
