import type { Message } from '../messages/types.js';
import type { FinishReason } from './model-response.js';
import type { RunUsage } from './run-usage.js';

/** What a run resolves to. */
export interface AgentResult {
  runId: string;
  /** The text of the last assistant message. */
  text: string;
  /** The run's transcript, compacted as the run went. */
  messages: Message[];
  usage: RunUsage;
  /** Agent steps taken: model calls with purpose 'generate' (a summarizer's calls are not steps). */
  steps: number;
  finishReason: FinishReason;
  /**
   * 'done' when the model answered; 'awaiting_approval' when the run stopped before tool calls
   * whose tool needs approval (listed in pendingApprovals). Continue such a run with
   * `agent.send(result.messages, { approvals: { [toolCallId]: true | false | { approved, reason } } })`,
   * or, in a session, with session.approve() / session.reject() and session.resume().
   */
  status: 'done' | 'awaiting_approval';
  /** The calls waiting for a decision, when status is 'awaiting_approval'. */
  pendingApprovals?: PendingApproval[];
}

/** A tool call a run stopped before, because its tool's `needsApproval` asked for a decision. */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  /** The arguments the model wrote. */
  arguments: unknown;
}
