import type { ToolCall } from '../messages/types.js';
import type { AgentResult } from './agent-result.js';
import type { FinishReason } from './model-response.js';
import type { Usage } from './usage.js';

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

/** Either compaction event: `compaction.start` or `compaction.done`. */
export type CompactionEvent = CompactionStartEvent | CompactionDoneEvent;

/**
 * Every event a run reports, a discriminated union on `type`. The rule for names: a
 * noun, a dot and a phase, with lifecycles as `start` / `delta` / `done` (and `error`).
 * Events of your own hooks join it through {@link AgentEventMap}.
 */
export type AgentEvent = BuiltinAgentEvent | AgentEventMap[keyof AgentEventMap];

/**
 * The events hooks of your own report with `ctx.emit()`, by type. Declare them by merging
 * into this interface; `ctx.emit()` then takes them and every listener receives them, typed:
 *
 * @example
 * declare module '@lousho/build-ai-agent' {
 *   interface AgentEventMap {
 *     'audit.logged': { type: 'audit.logged'; runId: string; entries: number };
 *   }
 * }
 * const audit: AgentHook = {
 *   name: 'audit',
 *   preGenerate: (ctx) => ctx.emit?.({ type: 'audit.logged', runId: ctx.run.runId, entries: ctx.request.messages.length }),
 * };
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so users can merge their events into it
export interface AgentEventMap {}

/** The events the library itself reports. */
export type BuiltinAgentEvent =
  | { type: 'run.start'; runId: string }
  | { type: 'step.start'; runId: string; step: number }
  | { type: 'text.delta'; runId: string; step: number; text: string }
  | { type: 'tool.start'; runId: string; step: number; toolCall: ToolCall }
  | {
      type: 'tool.done';
      runId: string;
      step: number;
      toolCallId: string;
      toolName: string;
      /** The text sent to the model. */
      result: string;
      isError: boolean;
    }
  | {
      type: 'step.done';
      runId: string;
      step: number;
      finishReason: FinishReason;
      usage: Usage;
      text: string;
      toolCalls: ToolCall[];
    }
  | {
      /** The run stopped before this call until it is approved or rejected (see Tool.needsApproval). */
      type: 'approval.requested';
      runId: string;
      step: number;
      toolCallId: string;
      toolName: string;
      arguments: unknown;
    }
  | CompactionStartEvent
  | CompactionDoneEvent
  | RecoveryEvent
  | { type: 'context.cleared'; sessionId: string }
  | { type: 'run.done'; runId: string; result: AgentResult }
  | { type: 'run.error'; runId: string; error: { code?: string; message: string } };

/** A recovery from an API error (see core/recovery.ts): what happened and what was done. */
export interface RecoveryEvent {
  type: 'recovery.done';
  runId: string;
  step: number;
  /**
   * What went wrong: the provider rejected the request as too long ('context-overflow'), it
   * would not fit before sending ('oversized-request'), the newest turn's results had to be
   * cut ('oversized-results'), an image was rejected ('media-too-large'), or the reply was cut
   * at the output limit ('output-truncated').
   */
  kind: 'context-overflow' | 'oversized-request' | 'oversized-results' | 'media-too-large' | 'output-truncated';
  /** What the run did about it, in words. */
  action: string;
  attempt: number;
}

/** The `type` of every event a run reports, e.g. `compaction.done`. */
export type AgentEventType = AgentEvent['type'];

/** Receives a run's events. */
export type AgentEventListener = (event: AgentEvent) => void;
