import type { Message } from '../messages/types.js';
import type { FinishReason } from './model-response.js';
import type { RunUsage } from './run-usage.js';

/** What a run resolves to; `Output` is the type of `output` (createAgent({ outputSchema })). */
export interface AgentResult<Output = unknown> {
  /** The run's id, as on its events. */
  runId: string;
  /** The text of the last assistant message. */
  text: string;
  /** The run's transcript, compacted as the run went. */
  messages: Message[];
  /** Tokens and cost of the whole run, the summarizer's calls included. */
  usage: RunUsage;
  /** Agent steps taken: model calls with purpose 'generate' (a summarizer's calls are not steps). */
  steps: number;
  /** Why the last model call stopped ('tool-calls' when the run waits for approvals). */
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
  /**
   * The final answer parsed as JSON and validated against createAgent({ outputSchema }) (the
   * validator's output, e.g. zod's with its defaults); absent without an outputSchema or while
   * the run awaits approvals.
   */
  output?: Output;
}

/** A tool call a run stopped before, because its tool's `needsApproval` asked for a decision. */
export interface PendingApproval {
  /** The id of the call: the key of its decision in `approvals`. */
  toolCallId: string;
  /** The name of the tool the model called. */
  toolName: string;
  /** The arguments the model wrote. */
  arguments: unknown;
}
