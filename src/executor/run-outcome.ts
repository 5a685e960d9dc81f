import type { AgentResult, PendingApproval } from '../contracts/agent-result.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { abortedError, LoushoError, toError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import type { RunState } from './run-state.js';

/** The run's result as it stands: the last assistant text, the transcript, usage and steps. */
export function resultOf(run: RunState, finishReason: ModelResponse['finishReason']): AgentResult {
  let text = '';
  for (let i = run.messages.length - 1; i >= 0; i--) {
    const m = run.messages[i] as Message;
    if (m.role === 'assistant') {
      // A model's commentary (Responses' phase) is a part of the message, not the answer.
      text = contentText(
        typeof m.content === 'string'
          ? m.content
          : m.content.filter((p) => !(p.type === 'text' && p.phase === 'commentary')),
      );
      break;
    }
  }
  return {
    runId: run.runId,
    text,
    messages: run.messages,
    usage: run.usage,
    steps: run.completedSteps,
    finishReason,
    status: 'done',
  };
}

/** The result of a run that stopped before tool calls whose tool needs approval. */
export function pausedResult(run: RunState, pendingApprovals: PendingApproval[]): AgentResult {
  return { ...resultOf(run, 'tool-calls'), status: 'awaiting_approval', pendingApprovals };
}

/** Gives an error the run's partial result (and a stable code), keeping the original as cause. */
export function withPartial(error: unknown, run: RunState): LoushoError {
  // A copy: work the run abandoned (a hook or tool that ignored the abort) may still change the live transcript.
  const partial = { ...resultOf(run, 'other'), messages: closedTranscript(run.messages) };
  if (run.abortSignal?.aborted === true) {
    return abortedError('The run was aborted through its AbortSignal.', error, partial);
  }
  if (LoushoError.isInstance(error)) {
    return new LoushoError(error.code, error.message, {
      cause: error,
      isRetryable: error.isRetryable,
      ...(error.details === undefined ? {} : { details: error.details }),
      partialResult: partial,
    });
  }
  const e = toError(error);
  return new LoushoError('LOUSHO_PROVIDER_FAILED', `The run failed: ${e.message}`, {
    cause: e,
    partialResult: partial,
  });
}

/** The error result a call gets in a partial transcript when the run ended before the call finished. */
export const UNFINISHED_CALL_TEXT = 'Error: the run ended before this tool call finished; it may not have run.';

/**
 * A copy of the transcript with an error result for each call of the last assistant
 * message that has none yet (the run ended while its tools ran), so a partial result is
 * always a valid transcript, ready to continue.
 */
function closedTranscript(messages: readonly Message[]): Message[] {
  const copy = [...messages];
  let at = copy.length - 1;
  while (at >= 0 && (copy[at] as Message).role === 'tool') at--;
  const last = copy[at];
  if (last?.role !== 'assistant' || last.toolCalls === undefined) return copy;
  const answered = new Set(copy.slice(at + 1).map((m) => (m as ToolMessage).toolCallId));
  for (const call of last.toolCalls) {
    if (answered.has(call.id)) continue;
    copy.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: UNFINISHED_CALL_TEXT, isError: true });
  }
  return copy;
}
