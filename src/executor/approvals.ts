import type { Message, ToolCall, ToolMessage } from '../messages/types.js';

/**
 * A decision on a call that waits for approval: `true` runs it, `false` (or `{ approved: false,
 * reason }`) gives the model an error result saying it was rejected, with the reason.
 */
export type ToolApproval =
  | boolean
  | {
      /** True runs the call; false gives the model an error result instead. */
      approved: boolean;
      /** Why it was rejected, added to the error result the model reads. */
      reason?: string;
    };

/**
 * A point of a run where durable state can be saved; ExecuteParams.onCheckpoint awaits each
 * (a session writes its checkpoints there). `messages` is the run's live transcript.
 */
export type RunCheckpoint =
  | {
      /** The model's reply was added to the transcript. */
      kind: 'reply';
      /** The step, from 1. */
      step: number;
      /** The run's transcript, the reply last. */
      messages: readonly Message[];
    }
  | {
      /** These tool calls are about to run. */
      kind: 'tools.start';
      /** The step whose reply made the calls, from 1. */
      step: number;
      /** The calls about to run (not those rejected or waiting for approval). */
      toolCalls: readonly ToolCall[];
    }
  | {
      /** One call has its result (before the step's other calls may have theirs). */
      kind: 'tool.result';
      /** The step whose reply made the call, from 1. */
      step: number;
      /** The call's result, not yet in the transcript. */
      message: ToolMessage;
    }
  | {
      /** Every call of the step has its result, and the results are in the transcript in call order. */
      kind: 'tools.done';
      /** The step whose reply made the calls, from 1. */
      step: number;
      /** The run's transcript, the results last. */
      messages: readonly Message[];
    };

/** The decision `approval` stands for. */
export function approvalDecision(approval: ToolApproval): { approved: boolean; reason?: string } {
  if (typeof approval === 'boolean') return { approved: approval };
  return approval.reason === undefined
    ? { approved: approval.approved === true }
    : { approved: approval.approved === true, reason: approval.reason };
}

/** The result a rejected call gets, which the model reads. */
export function rejectionResult(call: ToolCall, reason: string | undefined): ToolMessage {
  const why = reason === undefined || reason === '' ? '' : ` The reason given: ${reason}`;
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: `Error: this call of ${call.name} was rejected by the user and was not run.${why}`,
    isError: true,
  };
}

/**
 * The tool calls of the transcript's last step that have no result yet, when the transcript
 * ends with an assistant message that called tools and (some of) their results; else undefined.
 */
export function openToolCalls(messages: readonly Message[]): { calls: ToolCall[]; at: number } | undefined {
  let at = messages.length - 1;
  while (at >= 0 && messages[at]?.role === 'tool') at--;
  const assistant = messages[at];
  if (assistant?.role !== 'assistant' || (assistant.toolCalls ?? []).length === 0) return undefined;
  const answered = new Set(messages.slice(at + 1).map((m) => (m as ToolMessage).toolCallId));
  const calls = (assistant.toolCalls ?? []).filter((c) => !answered.has(c.id));
  return calls.length === 0 ? undefined : { calls: assistant.toolCalls ?? [], at };
}
