import type { AgentResult, PendingApproval } from '../contracts/agent-result.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import type { Session } from './session.js';
import type { SessionTurnOptions } from './session-types.js';

/** What driveSession() takes besides the session. */
export interface DriveSessionOptions extends Omit<SessionTurnOptions, 'idempotencyKey'> {
  /** A turn to run once the session is free (a queued user message); without it, only what is unfinished runs. */
  input?: string | Message;
  /** The input's idempotency key (the job's id): the input's turn starts at most once, however often the job runs. */
  idempotencyKey?: string;
}

/** Where driveSession() left the session, and what it did to get there. */
export interface DriveSessionResult {
  /**
   * 'sent': it ran the input's turn; 'resumed': it continued an unfinished turn (a crashed
   * one, or one whose approvals were all decided) and, with an input, then ran the input's
   * turn when it could; 'replayed': the input's key had its turn already finished, so
   * nothing ran; 'none': nothing was to run (idle, or waiting for a decision).
   */
  action: 'sent' | 'resumed' | 'replayed' | 'none';
  /** The resting state: 'idle', or 'awaiting_approval' with the calls in pendingApprovals. */
  status: 'idle' | 'awaiting_approval';
  /** The calls waiting for a decision (empty when idle). */
  pendingApprovals: PendingApproval[];
  /** The result of the last turn it ran or found (the input's turn when there was one), if any. */
  result?: AgentResult;
}

const rested = (session: Session, action: DriveSessionResult['action'], result: AgentResult | undefined) => ({
  action,
  status: session.status === 'awaiting_approval' ? ('awaiting_approval' as const) : ('idle' as const),
  pendingApprovals: session.pendingApprovals,
  ...(result === undefined ? {} : { result }),
});

const codeOf = (error: unknown) => (LoushoError.isInstance(error) ? error.code : undefined);

/**
 * Brings a session to its next resting state, which is what a queue's job handler calls with a
 * session (any worker, any number of deliveries of the same job): resumes an unfinished turn (a
 * crashed one, or one whose approvals are all decided), then runs `input` when given and its
 * key's turn never started, and reports what it did and where the session rests: idle, or
 * awaiting approval with the calls it waits on. Rejects with LOUSHO_SESSION_BUSY while another
 * process holds the session (let the queue retry the job), and with
 * LOUSHO_SESSION_AWAITING_APPROVAL when `input` cannot start because an earlier turn waits for a
 * decision.
 *
 * @example
 * const outcome = await driveSession(agent.session({ id: job.data.sessionId, store }), {
 *   input: job.data.input,
 *   idempotencyKey: job.id,
 * });
 * if (outcome.status === 'awaiting_approval') notifyApprover(outcome.pendingApprovals);
 */
export async function driveSession(session: Session, options: DriveSessionOptions = {}): Promise<DriveSessionResult> {
  const { input, idempotencyKey, ...turn } = options;
  let resumed: AgentResult | undefined;
  for (let round = 0; round < 8; round++) {
    await session.load();
    const status = session.status;
    if (status === 'turn_pending' || status === 'decided') {
      try {
        resumed = await session.resume(turn);
      } catch (error) {
        const code = codeOf(error); // someone else moved it on between the load and the lease: look again
        if (code !== 'LOUSHO_SESSION_IDLE' && code !== 'LOUSHO_SESSION_AWAITING_APPROVAL') throw error;
      }
      continue;
    }
    const ours = idempotencyKey === undefined ? undefined : session.turnOf(idempotencyKey);
    if (input === undefined || ours?.status === 'pending')
      return rested(session, resumed ? 'resumed' : 'none', resumed);
    // while an earlier turn waits for a decision, this rejects with LOUSHO_SESSION_AWAITING_APPROVAL
    const keyed = idempotencyKey === undefined ? turn : { ...turn, idempotencyKey };
    const result = await session.send(input, keyed);
    const action = ours?.status === 'done' ? (resumed ? 'resumed' : 'replayed') : 'sent';
    return rested(session, action, result);
  }
  return rested(session, resumed ? 'resumed' : 'none', resumed);
}
