import type { ResolvedCompaction } from '../compaction/resolve-compaction.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ReasoningOptions } from '../contracts/model-request.js';
import type { RunCheckpoint, ToolApproval } from '../executor/approvals.js';
import type { Tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';

/**
 * What a session is doing: 'idle' between turns; 'running' while a turn of this object runs;
 * 'turn_pending' when a turn did not finish (a crash or an error; another process may also
 * be running it); 'awaiting_approval' when a turn stopped before tool calls that need approval
 * and one of them has no decision yet; 'decided' once every one of them is decided, so the
 * turn is ready for session.resume(). Every status but 'running' is what the store holds, the
 * same in every process.
 */
export type SessionStatus = 'idle' | 'running' | 'turn_pending' | 'awaiting_approval' | 'decided';

/** Options of one session turn. */
export interface SessionTurnOptions {
  /** Ends the turn's run with LOUSHO_ABORTED as soon as it fires; the turn is left pending (resume() or cancelPending()). */
  abortSignal?: AbortSignal;
  /** Receives this turn's events, besides the session's own listeners. */
  onEvent?: AgentEventListener;
  /**
   * send() and stream() only: a key (a queue's job id, say) kept in the session's store with the
   * turn it started; no second turn is ever started for it, in any process (see Session.send()).
   */
  idempotencyKey?: string;
  /** Reasoning of this turn's model calls, in place of the agent's (createAgent({ reasoning })). */
  reasoning?: ReasoningOptions;
}

/** What session.compact() takes; every field falls back to the session's compaction settings. */
export interface SessionCompactOptions {
  /** The strategy to run; else the session's, else pruneToolResultsStrategy(). */
  strategy?: CompactionStrategy;
  /** The newest messages that fit in this many tokens stay as they are (at most half the threshold). */
  protectedTokens?: number;
  /** Share of the window a summary must get the transcript under, in (0, 1]. */
  thresholdPercent?: number;
  /** Context window in tokens; looked up for the agent's model when absent. */
  contextWindow?: number;
}

/** What session.compact() resolves to. */
export interface SessionCompactResult {
  /** How many messages the saved transcript had before. */
  messagesBefore: number;
  /** How many it has now. */
  messagesAfter: number;
  /** Estimated size of the transcript as a request before, in tokens (0 for an empty session). */
  tokensBefore: number;
  /** Estimated size after, in tokens (tokensBefore when nothing changed). */
  tokensAfter: number;
  /** The strategy that ran. */
  strategy: string;
  /** What went wrong (a LoushoError with a code), when something did; the transcript is then kept as it was or the fallback's. */
  error?: Error;
}

/** What a Session needs from its agent. @internal */
export interface SessionRunner {
  /** Runs one turn on `messages` (the transcript with the new input at its end). */
  run(
    messages: Message[],
    options: SessionTurnOptions & {
      approvals: Record<string, ToolApproval>;
      onCheckpoint: (point: RunCheckpoint) => Promise<void>;
    },
    emit: ((event: AgentEvent) => void) | undefined,
  ): Promise<AgentResult>;
  /** The agent's model, for estimates and the window (a local server's loaded window included). */
  provider(): LLMProvider;
  /** The compaction settings of the session (its own, else the agent's); undefined when compaction is off. */
  compaction: ResolvedCompaction | undefined;
  /** The agent's system prompt, which the session's first turn saves. */
  instructions?: string | undefined;
  /** The agent's tool of this name. */
  tool(name: string): Tool<unknown, unknown> | undefined;
}
