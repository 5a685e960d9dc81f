import type { AgentEvent } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { ToolApproval } from '../executor/approvals.js';
import { emptyUsage } from '../executor/usage.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import type { SessionRecord } from './records.js';
import type { SessionLog } from './session-log.js';
import type { SessionState } from './session-state.js';
import type { SessionRunner, SessionTurnOptions } from './session-types.js';
import { TurnRecorder } from './turn-recorder.js';

/**
 * The records that start a turn on `input`: the system prompt on the first turn, the input,
 * turn.start. The transcript the turn would run on is checked first, as the run checks it, so a
 * turn no provider could take is refused (LOUSHO_MESSAGE_INVALID) before anything is saved.
 */
export function startRecords(state: SessionState, input: string | Message, instructions: string | undefined) {
  const next: Message = typeof input === 'string' ? { role: 'user', content: input } : input;
  validateMessages([...state.messages, next]);
  const records: SessionRecord[] = [];
  const added: Message[] = [next];
  if (instructions !== undefined && instructions !== '' && !state.messages.some((m) => m.role === 'system')) {
    const system: Message = { role: 'system', content: instructions };
    if (state.messages.length === 0) added.unshift(system);
    else records.push({ type: 'rewrite', messages: [system, ...state.messages] });
  }
  records.push({ type: 'messages', messages: added }, { type: 'turn.start', turn: state.turns + 1 });
  return records;
}

/**
 * Runs the pending turn from the saved state (the transcript and the open step's results),
 * saving at every checkpoint of the run, then how it ended.
 */
export async function runTurn(
  log: SessionLog,
  runner: SessionRunner,
  approvals: Record<string, ToolApproval>,
  options: SessionTurnOptions,
  emit: ((event: AgentEvent) => void) | undefined,
): Promise<AgentResult> {
  const open = log.state.openResults();
  // The saved messages themselves, not copies: a run replaces a message it changes (or assigns it a new
  // content, which the recorder sees and saves as a rewrite), so sharing them keeps their token counts,
  // and a turn costs what it adds, not the transcript.
  const input = [...log.state.messages, ...open];
  const recorder = new TurnRecorder(log, input, input.slice(input.length - open.length) as typeof open);
  const { idempotencyKey: _key, ...turn } = options;
  // A writer that loses its lease aborts its run: in-flight tools get the signal, no further one starts.
  const abortSignal = turn.abortSignal === undefined ? log.signal : AbortSignal.any([turn.abortSignal, log.signal]);
  let result: AgentResult;
  try {
    result = await runner.run(input, { ...turn, abortSignal, approvals, onCheckpoint: recorder.onCheckpoint }, emit);
  } catch (error) {
    throw turn.abortSignal?.aborted === true ? error : lostWriter(log.signal, error);
  }
  await recorder.finish(result);
  return result;
}

/**
 * A run that ended because its writer lost the session rejects with LOUSHO_SESSION_CONFLICT
 * (why it was lost), keeping what the run threw as the cause; any other error is left as it is.
 */
function lostWriter(signal: AbortSignal, error: unknown): unknown {
  const reason = signal.reason as unknown;
  if (!signal.aborted || !LoushoError.isInstance(reason)) return error;
  const partial = LoushoError.isInstance(error) ? error.partialResult : undefined;
  return new LoushoError(reason.code, reason.message, {
    cause: error,
    ...(reason.details === undefined ? {} : { details: reason.details }),
    ...(partial === undefined ? {} : { partialResult: partial }),
  });
}

/** The result of a turn whose answer was saved but not its end (resume() only closes it), else undefined. */
export function answeredTurn(state: SessionState): AgentResult | undefined {
  const last = state.messages.at(-1);
  if (last?.role !== 'assistant' || (last.toolCalls ?? []).length > 0) return undefined;
  const text = contentText(last.content);
  const messages = [...state.messages];
  return { runId: 'resumed', text, messages, usage: emptyUsage(), steps: 0, finishReason: 'stop', status: 'done' };
}
