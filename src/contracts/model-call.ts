import type { Usage } from './usage.js';

/**
 * One model call of a run: the agent's own step (`'generate'`) or a summarizer's
 * (`'compaction'`). The same type is reported by a summarizer (`onModelCall`) and kept in
 * `result.usage.modelCalls`; the run fills in `step` and `costUsd` when it records it.
 */
export interface ModelCall {
  /** The vendor, e.g. 'openai'. */
  provider: string;
  /** The model id that answered. */
  model: string;
  /** 'generate' for the agent's own steps, 'compaction' for a summarizer's call. */
  purpose: 'generate' | 'compaction';
  /** The tokens the provider reported for the call. */
  usage: Usage;
  /** The step of the run it belongs to, from 1. */
  step: number;
  /** USD at the model's list price, when the price is known. */
  costUsd: number | undefined;
  /** When the call started and ended (ms since the epoch), for its trace span. */
  startTime?: number;
  /** When the call ended, in ms since the epoch. */
  endTime?: number;
}

/** What a caller reports of a model call it made; the run adds `step` and `costUsd`. */
export type ReportedModelCall = Omit<ModelCall, 'step' | 'costUsd'>;
