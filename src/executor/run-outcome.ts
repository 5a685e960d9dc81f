import type { AgentResult, PendingApproval } from '../contracts/agent-result.js';
import type { ModelResponse } from '../contracts/model-response.js';
import { abortedError, LoushoError, toError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import type { RunState } from './run-state.js';

/** The run's result as it stands: the last assistant text, the transcript, usage and steps. */
export function resultOf(run: RunState, finishReason: ModelResponse['finishReason']): AgentResult {
  let text = '';
  for (let i = run.messages.length - 1; i >= 0; i--) {
    const m = run.messages[i] as Message;
    if (m.role === 'assistant') {
      text = contentText(m.content);
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
  const partial = { ...resultOf(run, 'other'), messages: [...run.messages] };
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
