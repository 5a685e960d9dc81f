import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import type { FinishReason } from '../providers/types.js';
import type { PendingApproval } from './approvals.js';
import type { RunUsage } from './usage.js';

/** What a run resolves to. */
export interface AgentResult {
  runId: string;
  /** The text of the last assistant message. */
  text: string;
  /** The run's transcript, compacted as the run went. */
  messages: Message[];
  usage: RunUsage;
  /** Agent steps taken (model calls with purpose 'generate'). */
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

/**
 * The partial result a failed run carried (a limit reached, an abort, a provider error
 * that could not be recovered), or undefined.
 */
export function partialResult(error: unknown): AgentResult | undefined {
  if (!LoushoError.isInstance(error)) return undefined;
  return error.partialResult as AgentResult | undefined;
}
