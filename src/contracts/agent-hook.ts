import type { Transcript } from '../messages/transcript.js';
import type { Message } from '../messages/types.js';
import type { AgentEvent } from './agent-event.js';
import type { LLMProvider } from './llm-provider.js';
import type { ReportedModelCall } from './model-call.js';
import type { ModelRequest } from './model-request.js';
import type { ModelResponse } from './model-response.js';
import type { RequestBudget } from './request-budget.js';
import type { RunUsage } from './run-usage.js';

/** What a hook sees of the run it is part of. */
export interface RunContext {
  /** The run's id, as on its events and result.runId. */
  readonly runId: string;
  /** The current step, from 1. */
  readonly step: number;
  /** The run's transcript: the same array as `request.messages`. */
  readonly messages: Message[];
  /**
   * The run's transcript as an object that says what changed (`messages` is its array): a
   * hook that changes the messages only through it (replaceFrom(), replace(), append()) and
   * sets `usesTranscript` has the run recount exactly what it changed.
   */
  readonly transcript?: Transcript;
  /** Totals so far, the summarizer's calls included. */
  readonly usage: RunUsage;
  /** The provider the run calls (its `provider` and `modelId` name the model). */
  readonly provider: LLMProvider;
  /** The run's abort signal, when it was given one; pass it to any call a hook makes. */
  readonly abortSignal: AbortSignal | undefined;
  /**
   * Counts a model call a hook made (a summarizer's) in the run's usage and limits.
   * Throws LOUSHO_LIMIT_EXCEEDED when it takes the run past a limit.
   */
  recordModelCall(call: ReportedModelCall): void;
  /** The one measure of this run's requests: their size, the calibration and the context window. */
  readonly budget: RequestBudget;
  /**
   * State a hook keeps for this run between steps (created on first use, gone with the run):
   * `run.hookMemory('compaction', () => ({ quiet: false }))`.
   */
  hookMemory<T>(hook: string, create: () => T): T;
}

/** What a hook's recover() receives: the request must get down to `targetTokens`. */
export interface RecoverContext {
  /** The request that does not fit; `request.messages` is the run's transcript, changed in place. */
  request: ModelRequest;
  /** The run the request belongs to. */
  run: RunContext;
  /** Reports an event; present only when the run has listeners or is streamed. */
  emit?: (event: AgentEvent) => void;
  /** Why: the provider rejected the request as too long, or it would not fit before sending. */
  reason: 'context-overflow' | 'preflight';
  /** The request size to get under, in tokens. */
  targetTokens: number;
}

/** The draft a preGenerate hook may change: the request about to be sent. */
export interface PreGenerateContext {
  /** The request about to be sent. `request.messages` is the run's transcript; change it in place. */
  request: ModelRequest;
  /** The run the request belongs to. */
  run: RunContext;
  /** Reports an event; present only when the run has listeners or is streamed. */
  emit?: (event: AgentEvent) => void;
}

/** What a postGenerate hook sees: the request that was sent and the reply. */
export interface PostGenerateContext {
  /** The request that was sent (after any recovery changed it). */
  request: ModelRequest;
  /** The model's reply, not yet added to the transcript. */
  response: ModelResponse;
  /** The run the call belongs to. */
  run: RunContext;
  /** Reports an event; present only when the run has listeners or is streamed. */
  emit?: (event: AgentEvent) => void;
}

/**
 * Code that runs around every model call of a run. Hooks run in the order they were
 * registered; each takes one context object and may change `ctx.request` in place.
 */
export interface AgentHook {
  /** A unique name, e.g. 'compaction'. */
  readonly name: string;
  /** Before each model call, after the request is built. */
  preGenerate?(ctx: PreGenerateContext): void | Promise<void>;
  /** After each model call, before its tool calls run. */
  postGenerate?(ctx: PostGenerateContext): void | Promise<void>;
  /**
   * Compact harder: called when the request does not fit (the provider rejected it as too
   * long, or it is over the window before sending). Change `ctx.request.messages` in place
   * and resolve to true when something changed.
   */
  recover?(ctx: RecoverContext): boolean | Promise<boolean>;
  /**
   * True when the hook changes the transcript only through `ctx.run.transcript` (the
   * compaction hook does). After any other hook the run compares every message once, since
   * the hook may have replaced any of them: a message you replace, or whose `content` you
   * assign, is counted at the next estimate.
   */
  readonly usesTranscript?: boolean;
}
