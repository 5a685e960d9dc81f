import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { RunCheckpoint, ToolApproval } from '../executor/approvals.js';
import type { Tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';

/**
 * What a session is doing: 'idle' between turns; 'running' while a turn of this object runs;
 * 'turn_pending' when a turn did not finish (a crash or an error; another process may also
 * be running it); 'awaiting_approval' when a turn stopped before tool calls that need approval.
 */
export type SessionStatus = 'idle' | 'running' | 'turn_pending' | 'awaiting_approval';

/** Options of one session turn. */
export interface SessionTurnOptions {
  abortSignal?: AbortSignal;
  onEvent?: AgentEventListener;
}

/** What session.compact() takes; every field falls back to the session's compaction settings. */
export interface SessionCompactOptions {
  strategy?: CompactionStrategy;
  protectedTokens?: number;
  thresholdPercent?: number;
  contextWindow?: number;
}

/** What session.compact() resolves to. */
export interface SessionCompactResult {
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  strategy: string;
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
  compaction: (SessionCompactOptions & { strategy: CompactionStrategy }) | undefined;
  /** The agent's system prompt, which the session's first turn saves. */
  instructions?: string | undefined;
  /** The agent's tool of this name. */
  tool(name: string): Tool<unknown, unknown> | undefined;
}
