import { configError, LoushoError } from '../errors/lousho-error.js';
import type { ToolApproval } from '../executor/approvals.js';
import type { Tool } from '../executor/tool.js';
import type { ToolMessage } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import type { SessionRecord } from './records.js';
import type { SessionState } from './session-state.js';

/** The error for an operation that needs the session's unfinished turn dealt with first. */
export function unfinishedTurn(id: string, state: SessionState, what: string): LoushoError | undefined {
  if (state.status === 'awaiting_approval') {
    const calls = (state.pending?.awaiting ?? []).map((a) => `${a.toolName} (${a.toolCallId})`).join(', ');
    return new LoushoError(
      'LOUSHO_SESSION_AWAITING_APPROVAL',
      `Session '${id}' cannot ${what}: its turn is waiting for approval of ${calls}. Decide each with ` +
        'session.approve(toolCallId) or session.reject(toolCallId, { reason }), then call session.resume().',
      { details: { id, pendingApprovals: state.pending?.awaiting ?? [] } },
    );
  }
  if (state.status === 'decided') {
    return new LoushoError(
      'LOUSHO_SESSION_TURN_PENDING',
      `Session '${id}' cannot ${what}: every call turn ${state.pending?.turn} waited on is decided, and the turn ` +
        'is ready to go on. Call session.resume() to run it (or session.cancelPending() to drop it).',
      { details: { id, turn: state.pending?.turn } },
    );
  }
  if (state.status === 'turn_pending') {
    return new LoushoError(
      'LOUSHO_SESSION_TURN_PENDING',
      `Session '${id}' cannot ${what}: turn ${state.pending?.turn} did not finish (the process running it stopped, ` +
        'or the turn failed). Call session.resume() to continue it from its last checkpoint, or ' +
        'session.cancelPending() to drop it.',
      { details: { id, turn: state.pending?.turn } },
    );
  }
  return undefined;
}

/** How to continue the pending turn: decisions for the executor and results to save first. */
export interface ResumePlan {
  approvals: Record<string, ToolApproval>;
  /** Error results of calls a crash interrupted whose tool is not idempotent. */
  interrupted: SessionRecord[];
}

/**
 * Plans resume(): decided calls carry their decision; a call that was running when the process
 * stopped runs again only when its tool is idempotent (as an approved call, so it is not asked
 * about twice), else it gets an error result saying it was interrupted. Calls that never started
 * are left to the run, which asks about approval as usual. A transcript the run would refuse is
 * refused here (LOUSHO_MESSAGE_INVALID), before anything is saved.
 */
export function planResume(
  id: string,
  state: SessionState,
  tool: (name: string) => Tool<unknown, unknown> | undefined,
): ResumePlan {
  const pending = state.pending;
  if (pending === undefined) {
    throw new LoushoError(
      'LOUSHO_SESSION_IDLE',
      `Session '${id}' has no unfinished turn to resume; send() starts a new one.`,
      { details: { id } },
    );
  }
  if (state.undecided().length > 0) throw unfinishedTurn(id, state, 'resume') as LoushoError;
  const approvals: Record<string, ToolApproval> = Object.fromEntries(pending.decisions);
  const interrupted: SessionRecord[] = [];
  const last = state.messages.findLast((m) => m.role === 'assistant');
  const calls = last?.role === 'assistant' ? (last.toolCalls ?? []) : [];
  for (const call of calls) {
    if (!pending.running.has(call.id) || pending.results.has(call.id)) continue;
    if (tool(call.name)?.idempotent === true) {
      approvals[call.id] = true;
      continue;
    }
    const message: ToolMessage = {
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content:
        `Error: this call of ${call.name} was interrupted (the process running it stopped) and was not run again, ` +
        'because the tool is not marked idempotent. It may or may not have taken effect: check before calling it again.',
      isError: true,
    };
    interrupted.push({ type: 'tool.result', message });
  }
  // The run checks its transcript as this does: refused here, nothing was saved first.
  const results = interrupted.flatMap((r) => (r.type === 'tool.result' ? [r.message] : []));
  validateMessages([...state.messages, ...state.openResults(), ...results], { pendingCalls: true });
  return { approvals, interrupted };
}

/**
 * The record of a decision on `toolCallId`, or undefined when the call already has this decision
 * (a redelivered approval is a no-op). Throws LOUSHO_SESSION_DECISION_FINAL when it has the
 * other one, and LOUSHO_CONFIG_INVALID when the call never waited for approval.
 */
export function decisionRecord(
  id: string,
  state: SessionState,
  toolCallId: string,
  approved: boolean,
  reason: string | undefined,
): SessionRecord | undefined {
  const awaiting = state.pending?.awaiting ?? [];
  const waits = awaiting.some((a) => a.toolCallId === toolCallId);
  const taken = waits ? state.pending?.decisions.get(toolCallId) : state.decided.get(toolCallId);
  if (taken !== undefined) {
    if (taken.approved === approved) return undefined;
    const was = taken.approved ? 'approved' : 'rejected';
    throw new LoushoError(
      'LOUSHO_SESSION_DECISION_FINAL',
      `Session '${id}': call '${toolCallId}' was already ${was}, and a decision is final; the ` +
        `${approved ? 'approval' : 'rejection'} was refused and nothing changed. Deciding it again the same way is a no-op.`,
      {
        details: {
          id,
          toolCallId,
          approved: taken.approved,
          ...(taken.reason === undefined ? {} : { reason: taken.reason }),
        },
      },
    );
  }
  if (!waits) {
    const waiting = awaiting.map((a) => `'${a.toolCallId}' (${a.toolName})`).join(', ') || 'none';
    throw configError(
      `Session '${id}' has no call '${toolCallId}' waiting for approval; the calls waiting are: ${waiting}.`,
    );
  }
  const decision = { type: 'approval.decided', toolCallId, approved } as const;
  return reason === undefined ? decision : { ...decision, reason };
}
