import type { AgentEvent } from '../contracts/agent-event.js';
import type { PendingApproval } from '../contracts/agent-result.js';
import { toError } from '../errors/lousho-error.js';
import type { Transcript } from '../messages/transcript.js';
import type { ToolCall, ToolMessage } from '../messages/types.js';
import {
  approvalDecision,
  openToolCalls,
  type RunCheckpoint,
  rejectionResult,
  type ToolApproval,
} from './approvals.js';
import type { RunState } from './run-state.js';
import { runToolCalls } from './run-tools.js';
import type { ToolRegistry } from './tool-registry.js';
import { validateToolArguments } from './tool-registry.js';

/** What the tool phase of a step needs besides the run's state. */
export interface ToolStepOptions {
  tools: ToolRegistry;
  step: number;
  emit: ((event: AgentEvent) => void) | undefined;
  abortSignal: AbortSignal | undefined;
  approvals: Readonly<Record<string, ToolApproval>> | undefined;
  onCheckpoint: ((point: RunCheckpoint) => Promise<void>) | undefined;
}

/** Whether a call must wait for a decision: its tool asks, and its arguments are valid (else it fails anyway). */
async function needsApproval(call: ToolCall, tools: ToolRegistry): Promise<boolean | Error> {
  const tool = tools.get(call.name);
  const ask = tool?.needsApproval;
  if (tool === undefined || ask === undefined || ask === false) return false;
  if (ask === true) return true;
  const checked = await validateToolArguments(tool, call.arguments);
  if (!checked.ok) return false;
  try {
    return (await ask.call(tool, checked.value as never, { toolCallId: call.id })) === true;
  } catch (error) {
    return toError(error);
  }
}

/** Puts the results after the assistant message at `at` in the order of its calls. */
function orderResults(transcript: Transcript, at: number, calls: readonly ToolCall[]): void {
  const order = new Map(calls.map((c, i) => [c.id, i]));
  const tail = (transcript.messages.slice(at + 1) as ToolMessage[]).sort(
    (a, b) => (order.get(a.toolCallId) ?? 0) - (order.get(b.toolCallId) ?? 0),
  );
  transcript.replaceFrom(at + 1, tail);
}

/**
 * Runs the tool calls of the transcript's last step that have no result yet: a call whose
 * tool needs approval runs only once approved (rejected, it gets an error result); the
 * others run concurrently. The results join the transcript in call order. Resolves to the
 * calls still waiting for a decision (the run stops there), or [] when the step is complete.
 */
export async function runToolStep(state: RunState, options: ToolStepOptions): Promise<PendingApproval[]> {
  const open = openToolCalls(state.messages);
  if (open === undefined) return [];
  const answered = new Set(state.messages.slice(open.at + 1).map((m) => (m as ToolMessage).toolCallId));
  const { emit, step, onCheckpoint } = options;
  const toRun: ToolCall[] = [];
  const decided: ToolMessage[] = [];
  const awaiting: PendingApproval[] = [];
  for (const call of open.calls) {
    if (answered.has(call.id)) continue;
    const given = options.approvals?.[call.id];
    const decision = given === undefined ? undefined : approvalDecision(given);
    if (decision?.approved === false) {
      decided.push(rejectionResult(call, decision.reason));
      continue;
    }
    const ask = decision?.approved === true ? false : await needsApproval(call, options.tools);
    if (ask instanceof Error) {
      const content = `Error: could not tell whether this call needs approval: ${ask.message}`;
      decided.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content, isError: true });
    } else if (ask) awaiting.push({ toolCallId: call.id, toolName: call.name, arguments: call.arguments });
    else toRun.push(call);
  }
  for (const message of decided) await onCheckpoint?.({ kind: 'tool.result', step, message });
  if (toRun.length > 0) await onCheckpoint?.({ kind: 'tools.start', step, toolCalls: toRun });
  const results = await runToolCalls(toRun, options.tools, {
    abortSignal: options.abortSignal,
    emit,
    runId: state.runId,
    step,
    trace: state.traceContext,
    onResult: onCheckpoint && ((message) => onCheckpoint({ kind: 'tool.result', step, message })),
  });
  state.messages.push(...decided, ...results);
  orderResults(state.transcript, open.at, open.calls);
  for (const pending of awaiting) emit?.({ type: 'approval.requested', runId: state.runId, step, ...pending });
  if (awaiting.length === 0) await onCheckpoint?.({ kind: 'tools.done', step, messages: state.messages });
  return awaiting;
}
