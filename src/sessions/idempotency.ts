import type { AgentResult } from '../contracts/agent-result.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { emptyUsage } from '../executor/usage.js';
import { unfinishedTurn } from './resume-turn.js';
import type { SessionState } from './session-state.js';

/** Checks an idempotencyKey option: absent, or a non-empty string. */
export function checkIdempotencyKey(key: unknown): asserts key is string | undefined {
  if (key !== undefined && (typeof key !== 'string' || key === '')) {
    throw configError(
      `session.send(input, { idempotencyKey }) takes a non-empty string (such as the queue's job id), got ${JSON.stringify(key)}.`,
      { option: 'idempotencyKey' },
    );
  }
}

/**
 * What send() with a key the session has seen does instead of starting a turn: resolves to the
 * turn's result when it finished, else rejects with its state (LOUSHO_SESSION_TURN_PENDING,
 * LOUSHO_SESSION_AWAITING_APPROVAL, or LOUSHO_SESSION_TURN_CANCELLED when it was dropped).
 * Undefined when the session never saw the key.
 */
export function keyedTurnOutcome(id: string, state: SessionState, key: string): AgentResult | undefined {
  const seen = state.keys.get(key);
  if (seen === undefined) return undefined;
  const details = { id, idempotencyKey: key, turn: seen.turn };
  if (seen.status === 'done') {
    return {
      runId: `turn-${seen.turn}`,
      text: seen.text ?? '',
      messages: [...state.messages],
      usage: emptyUsage(),
      steps: 0,
      finishReason: 'stop',
      status: 'done',
    };
  }
  if (seen.status === 'cancelled') {
    throw new LoushoError(
      'LOUSHO_SESSION_TURN_CANCELLED',
      `Session '${id}' already started turn ${seen.turn} for idempotencyKey '${key}', and it was dropped ` +
        '(cancelPending() or rewind()); no second turn is started for a key. Send with a new idempotencyKey to run it again.',
      { details },
    );
  }
  const blocked = unfinishedTurn(
    id,
    state,
    `start another turn for idempotencyKey '${key}' (turn ${seen.turn} has it)`,
  );
  if (blocked === undefined)
    throw new Error(`unreachable: the turn of key '${key}' is pending but the session is idle`);
  throw new LoushoError(blocked.code, blocked.message, { details: { ...(blocked.details ?? {}), ...details } });
}
