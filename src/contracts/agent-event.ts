import type { ToolCall } from '../messages/types.js';
import type { AgentResult } from './agent-result.js';
import type { FinishReason } from './model-response.js';
import type { Usage } from './usage.js';

/** Reported before a compaction runs, inside the step and before the model call. */
export interface CompactionStartEvent {
  /** Identifies the event: a compaction is about to run. */
  type: 'compaction.start';
  /** The run and step it happened in (absent for a manual compaction outside a run). */
  runId?: string;
  /** The step of the run, from 1 (absent for a manual compaction). */
  step?: number;
  /** The strategy that runs ('prune-tool-results' while summaries are paused). */
  strategy: string;
  /** Estimated request size before compaction, in tokens. */
  tokensBefore: number;
  /** The model's context window in tokens, as the compaction resolved it. */
  contextWindow: number;
  /** The threshold in tokens: the request is compacted above it, and a summary must bring it under. */
  thresholdTokens: number;
  /**
   * 'manual' for session.compact(); 'overflow' when the request did not fit the context
   * window and the overflow recovery ran; absent when a run's hook compacted above its threshold.
   */
  trigger?: 'manual' | 'overflow';
}

/** Reported once after each compaction.start. */
export interface CompactionDoneEvent {
  /** Identifies the event: the compaction announced by the last compaction.start has finished. */
  type: 'compaction.done';
  /** The run it happened in (absent for a manual compaction outside a run). */
  runId?: string;
  /** The step of the run, from 1 (absent for a manual compaction). */
  step?: number;
  /** The strategy that ran. */
  strategy: string;
  /** The strategy whose result was kept, when it differs (a fallback or a rejected summary). */
  appliedStrategy?: string;
  /** Estimated request size before compaction, in tokens. */
  tokensBefore: number;
  /** Estimated request size after compaction, in tokens (equal to tokensBefore when nothing changed). */
  tokensAfter: number;
  /** The toolCallIds whose results were replaced by a marker (empty when none were, or nothing changed). */
  prunedToolCallIds: string[];
  /** True when old turns were replaced by a summary (the text is passed to onCompaction only). */
  summary?: boolean;
  /** What went wrong, when something did (a failed strategy, a rejected summary); the run goes on either way. */
  error?: {
    /** The error's message; onCompaction receives the whole LoushoError, with its code. */
    message: string;
  };
  /** True when the strategy could not shrink anything. */
  unchanged?: true;
  /**
   * 'manual' for session.compact(); 'overflow' when the request did not fit the context
   * window and the overflow recovery ran; absent when a run's hook compacted above its threshold.
   */
  trigger?: 'manual' | 'overflow';
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
  | {
      /** Identifies the event: the run began, before its first step. */
      type: 'run.start';
      /** The run's id (`run_...`), the same on every event of the run and on result.runId. */
      runId: string;
    }
  | {
      /** Identifies the event: a step began, before its request is built and sent. */
      type: 'step.start';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step, from 1. */
      step: number;
    }
  | {
      /** Identifies the event: a piece of the reply's text arrived (the model is streamed when the run has listeners). */
      type: 'text.delta';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step the reply belongs to, from 1. */
      step: number;
      /** The new text only; the pieces of a step joined make its reply. */
      text: string;
    }
  | {
      /** Identifies the event: a piece of the model's reasoning arrived, apart from its text (streamed runs only). */
      type: 'reasoning.delta';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step the reasoning belongs to, from 1. */
      step: number;
      /** The new reasoning text only, as the provider shows it (OpenAI shows a summary). */
      text: string;
    }
  | {
      /** Identifies the event: a tool call is about to run. */
      type: 'tool.start';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step whose reply made the call, from 1. */
      step: number;
      /** The call as the model wrote it: its id, tool name and arguments. */
      toolCall: ToolCall;
    }
  | {
      /** Identifies the event: a tool call finished, and its result is ready to send. */
      type: 'tool.done';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step whose reply made the call, from 1. */
      step: number;
      /** The id of the call, as on its tool.start. */
      toolCallId: string;
      /** The name of the tool that was called. */
      toolName: string;
      /** The text sent to the model. */
      result: string;
      /** True when the tool threw, does not exist or got invalid arguments; `result` then starts with 'Error:'. */
      isError: boolean;
    }
  | {
      /** Identifies the event: the model replied, and the reply is in the transcript. */
      type: 'step.done';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step, from 1. */
      step: number;
      /** Why the model stopped; 'tool-calls' when the run goes on with another step. */
      finishReason: FinishReason;
      /** The tokens the provider reported for the reply (result.usage has the run's totals). */
      usage: Usage;
      /** The reply's text ('' when it only called tools). */
      text: string;
      /** The tool calls of the reply, in order (empty when it made none). */
      toolCalls: ToolCall[];
    }
  | {
      /** Identifies the event: an MCP server reported the progress of a running call (notifications/progress). */
      type: 'mcp.progress';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step whose reply made the call, from 1. */
      step: number;
      /** The id of the call, as on its tool.start. */
      toolCallId: string;
      /** The server's name, as in its mcpServers entry. */
      server: string;
      /** The server's own name of the tool. */
      tool: string;
      /** How far the call is; it grows with each notification. */
      progress: number;
      /** The progress at which the call is done, when the server knows it. */
      total?: number;
      /** What the server says it is doing, when it says. */
      message?: string;
    }
  | {
      /** The run stopped before this call until it is approved or rejected (see Tool.needsApproval). */
      type: 'approval.requested';
      /** The run's id, as on run.start. */
      runId: string;
      /** The step whose reply made the call, from 1. */
      step: number;
      /** The id of the call waiting for a decision: the key of its approval. */
      toolCallId: string;
      /** The name of the tool that was called. */
      toolName: string;
      /** The arguments the model wrote. */
      arguments: unknown;
    }
  | CompactionStartEvent
  | CompactionDoneEvent
  | RecoveryEvent
  | {
      /** Identifies the event: session.clear() emptied a session's transcript. */
      type: 'context.cleared';
      /** The id of the session that was cleared. */
      sessionId: string;
    }
  | {
      /** Identifies the event: the run ended with a result (finished or waiting for approvals). */
      type: 'run.done';
      /** The run's id, as on run.start. */
      runId: string;
      /** What the run resolves to. */
      result: AgentResult;
    }
  | {
      /** Identifies the event: the run failed; the LoushoError it rejects with carries the partial result. */
      type: 'run.error';
      /** The run's id, as on run.start. */
      runId: string;
      /** What went wrong. */
      error: {
        /** The LoushoError code, e.g. 'LOUSHO_LIMIT_EXCEEDED'. */
        code?: string;
        /** The error's message. */
        message: string;
      };
    };

/** A recovery from an API error (see core/recovery.ts): what happened and what was done. */
export interface RecoveryEvent {
  /** Identifies the event: a model call recovered from an error, or avoided one. */
  type: 'recovery.done';
  /** The run's id, as on run.start. */
  runId: string;
  /** The step whose model call recovered, from 1. */
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
  /** Which attempt of this kind within the step it was, from 1. */
  attempt: number;
}

/** The `type` of every event a run reports, e.g. `compaction.done`. */
export type AgentEventType = AgentEvent['type'];

/** Receives a run's events. */
export type AgentEventListener = (event: AgentEvent) => void;
