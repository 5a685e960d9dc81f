import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest, ReasoningOptions } from '../contracts/model-request.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import { abortedError, configError, LoushoError, toError } from '../errors/lousho-error.js';
import type { AssistantMessage, Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { abortable } from '../providers/abortable.js';
import { isLLMProvider } from '../providers/resolve-provider.js';
import { traceRunEvents } from '../telemetry/compaction-spans.js';
import { endRunSpan, startRunSpan } from '../telemetry/tracing.js';
import { deliver, processListeners } from './agent-events.js';
import type { RunCheckpoint, ToolApproval } from './approvals.js';
import { afterHook, HookRegistry } from './hook-registry.js';
import { type AgentLimits, checkLimits, reachedLimit } from './limits.js';
import { callWithRecovery } from './recover-call.js';
import { pausedResult, resultOf, withPartial } from './run-outcome.js';
import { RunState } from './run-state.js';
import { type AgentStream, streamRun } from './stream-run.js';
import { finalOutput, type OutputSchema, outputSpecOf } from './structured-output.js';
import { ToolRegistry } from './tool-registry.js';
import { runToolStep } from './tool-step.js';

/** What the executor needs of an agent: its instructions and settings (an Agent from createAgent() fits). */
export interface AgentDefinition {
  /** The agent's name, given to the run's trace span. */
  name?: string;
  /** The system prompt. */
  instructions?: string;
  /** Budgets of each run (steps, tokens, cost); reaching one ends it with LOUSHO_LIMIT_EXCEEDED. */
  limits?: AgentLimits;
  /**
   * When set, the final answer must be JSON matching this schema (a Standard Schema validator or a
   * JSON Schema): it is parsed and validated into result.output, asked for once more when it does
   * not match, and the run fails with LOUSHO_OUTPUT_INVALID when it still does not.
   */
  outputSchema?: OutputSchema;
  /** maxOutputTokens of each model call. */
  maxOutputTokens?: number;
  /** Sampling temperature of each model call; the provider's default when absent. */
  temperature?: number;
  /** Reasoning of each model call (extended thinking budget, reasoning effort); the provider's default when absent. */
  reasoning?: ReasoningOptions;
}

/**
 * A run's input: a user message as text, one message, or a whole transcript to continue.
 * A transcript that has its own system message keeps it, and the agent's instructions are
 * then not added.
 */
export type AgentInput = string | Message | Message[];

/** Everything one run needs. */
export interface ExecuteParams {
  /** The instructions and settings to run with. */
  agent: AgentDefinition;
  /** What the run starts from: a user message, a message, or a transcript to continue. */
  input: AgentInput;
  /** The model every step calls. */
  provider: LLMProvider;
  /** The tools the model may call; none when absent. */
  toolRegistry?: ToolRegistry;
  /** The hooks that run around each model call (compaction, for one); none when absent. */
  hooks?: HookRegistry;
  /** Receives every event of the run. */
  onEvent?: AgentEventListener | AgentEventListener[];
  /** Ends the run with LOUSHO_ABORTED as soon as it fires. */
  abortSignal?: AbortSignal;
  /** Decisions on calls a run stopped before (result.pendingApprovals), by toolCallId; see AgentResult.status. */
  approvals?: Readonly<Record<string, ToolApproval>>;
  /** Awaited at each point where the run's state can be saved (a session checkpoints there). */
  onCheckpoint?: (point: RunCheckpoint) => Promise<void>;
  /**
   * The key every model call of the run sends where the provider routes its prompt cache by
   * one (request.cacheKey): a session's id, so all its turns share it; the run's id when absent.
   */
  cacheKey?: string;
  /**
   * False (createAgent({ compaction: false })): a request that does not fit the window, or
   * that the provider rejects as too long, ends the run with LOUSHO_CONTEXT_OVERFLOW; nothing
   * is compacted. Else a run with no hook that recovers still gets the overflow recovery.
   */
  overflowRecovery?: boolean;
  /**
   * Picks the tool definitions sent at each step (tool search); all of the registry's by default.
   * @internal
   */
  selectTools?: (run: RunState, all: ToolDefinition[]) => Promise<ToolDefinition[]>;
}

function initialMessages(agent: AgentDefinition, input: AgentInput): Message[] {
  const messages: Message[] = [];
  if (agent.instructions !== undefined && agent.instructions !== '')
    messages.push({ role: 'system', content: agent.instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    validateMessages(input, { pendingCalls: true }); // a paused run continues with its last calls still to run
    const hasSystem = input.some((m) => m.role === 'system');
    return hasSystem ? [...input] : [...messages, ...input];
  } else {
    validateMessages([input]);
    messages.push(input);
  }
  return messages;
}

function listenerEmit(listeners: AgentEventListener[]): ((event: AgentEvent) => void) | undefined {
  if (listeners.length === 0) return undefined;
  return (event) => deliver(listeners, event, 'an onEvent');
}

function checkBudget(run: RunState, limits: AgentLimits): void {
  const hit = reachedLimit(limits, run.usage, run.completedSteps);
  if (hit === undefined) return;
  throw new LoushoError(
    'LOUSHO_LIMIT_EXCEEDED',
    `The run reached limits.${hit.limit} (${hit.value} of ${hit.max}) and stopped. Raise limits.${hit.limit} to let it go on; ` +
      'the partial result is on error.partialResult.',
    { details: { ...hit } },
  );
}

/** Read through a function so the check after awaits is not narrowed away. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

async function runHook(name: string, fn: () => void | Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    throw new LoushoError('LOUSHO_HOOK_FAILED', `Hook '${name}' threw: ${toError(error).message}`, { cause: error });
  }
}

/** Runs one agent run; `extraEmit` receives the events besides params.onEvent. @internal */
export async function executeRun(
  params: ExecuteParams,
  extraEmit: ((event: AgentEvent) => void) | undefined,
): Promise<AgentResult> {
  if (!isLLMProvider(params.provider)) {
    throw configError(
      'AgentExecutor needs a provider: an LLMProvider such as resolveProvider("openai/gpt-4o") or mockModel([...]).',
    );
  }
  const limits = checkLimits(params.agent.limits);
  const tools = params.toolRegistry ?? new ToolRegistry();
  const hooks = params.hooks ?? new HookRegistry();
  const listeners =
    params.onEvent === undefined ? [] : Array.isArray(params.onEvent) ? params.onEvent : [params.onEvent];
  const runSpan = startRunSpan(params.agent.name);
  const emit = listenerEmit([
    // Compaction and recovery in the trace, only when something records it (else hooks get no emit, as before).
    ...(runSpan.span.isRecording() ? [traceRunEvents(runSpan.context)] : []),
    ...listeners,
    ...(extraEmit === undefined ? [] : [extraEmit]),
    ...processListeners(),
  ]);
  const state = new RunState({
    messages: initialMessages(params.agent, params.input),
    provider: params.provider,
    abortSignal: params.abortSignal,
    emit,
  });
  const { runId } = state;
  const output = outputSpecOf(params.agent.outputSchema);
  let outputRetried = false;
  state.traceContext = runSpan.context;
  emit?.({ type: 'run.start', runId });
  const finish = (result: AgentResult) => {
    endRunSpan(runSpan.span, { usage: state.usage });
    emit?.({ type: 'run.done', runId, result });
    return result;
  };
  // Whatever ignores the abort signal (a summarizer in a hook, a tool, a custom strategy), the run
  // ends with LOUSHO_ABORTED as soon as it fires; the abandoned work finishes on its own, unread.
  const settle = <T>(work: Promise<T>) => abortable(work, params.abortSignal);
  const toolStep = () =>
    runToolStep(state, {
      tools,
      step: state.step,
      emit,
      abortSignal: params.abortSignal,
      approvals: params.approvals,
      onCheckpoint: params.onCheckpoint,
    });
  try {
    const resumed = await settle(toolStep()); // a transcript that ends in a step with calls still to run
    if (resumed.length > 0) return finish(pausedResult(state, resumed));
    for (;;) {
      if (isAborted(params.abortSignal)) throw abortedError('The run was aborted through its AbortSignal.');
      checkBudget(state, limits);
      state.step++;
      const step = state.step;
      emit?.({ type: 'step.start', runId, step });
      const all = tools.definitions();
      const definitions = params.selectTools === undefined ? all : await params.selectTools(state, all);
      const request: ModelRequest = {
        model: params.provider.modelId,
        messages: state.messages,
        ...(definitions.length > 0 ? { tools: definitions } : {}),
        ...(output === undefined ? {} : { outputSchema: output.json }),
        ...(params.agent.maxOutputTokens === undefined ? {} : { maxOutputTokens: params.agent.maxOutputTokens }),
        ...(params.agent.temperature === undefined ? {} : { temperature: params.agent.temperature }),
        ...(params.agent.reasoning === undefined ? {} : { reasoning: params.agent.reasoning }),
        cacheKey: params.cacheKey ?? runId,
        ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
      };
      for (const hook of hooks.list()) {
        const pre = hook.preGenerate;
        if (pre === undefined) continue;
        await settle(
          runHook(hook.name, () => pre.call(hook, { request, run: state, ...(emit === undefined ? {} : { emit }) })),
        );
        afterHook(hook, state.transcript);
      }
      if (isAborted(params.abortSignal)) throw abortedError('The run was aborted through its AbortSignal.');
      checkBudget(state, limits); // a summarizer's call counts too
      const response = await settle(
        callWithRecovery({
          provider: params.provider,
          request,
          run: state,
          hooks,
          emit,
          overflowRecovery: params.overflowRecovery !== false,
        }),
      );
      for (const hook of hooks.list()) {
        const post = hook.postGenerate;
        if (post !== undefined) {
          await settle(
            runHook(hook.name, () =>
              post.call(hook, { request, response, run: state, ...(emit === undefined ? {} : { emit }) }),
            ),
          );
          afterHook(hook, state.transcript);
        }
      }
      const assistant: AssistantMessage = { role: 'assistant', content: response.parts ?? response.text };
      if (response.toolCalls.length > 0) assistant.toolCalls = response.toolCalls;
      state.messages.push(assistant);
      state.completedSteps++;
      emit?.({
        type: 'step.done',
        runId,
        step,
        finishReason: response.finishReason,
        usage: response.usage,
        text: response.text,
        toolCalls: response.toolCalls,
      });
      await params.onCheckpoint?.({ kind: 'reply', step, messages: state.messages });
      if (response.toolCalls.length === 0) {
        const result = resultOf(state, response.finishReason);
        const checked = output === undefined ? result : await finalOutput(output, result, state, outputRetried);
        if (checked !== 'retry') return finish(checked);
        outputRetried = true;
        continue;
      }
      const awaiting = await settle(toolStep());
      if (awaiting.length > 0) return finish(pausedResult(state, awaiting));
    }
  } catch (error) {
    const failure = withPartial(error, state);
    endRunSpan(runSpan.span, { usage: state.usage, error: failure });
    emit?.({ type: 'run.error', runId, error: { code: failure.code, message: failure.message } });
    throw failure;
  }
}

/**
 * The step loop: builds each request, runs the hooks (in registration order), calls the
 * model, runs the tool calls of each turn concurrently, and stops when the model answers
 * without calling a tool, a limit is reached, or the run is aborted.
 *
 * @example
 * const result = await AgentExecutor.execute({ agent, input, provider, toolRegistry, hooks });
 */
export const AgentExecutor = {
  /** Runs to the end and resolves to the result; rejects with a LoushoError carrying the partial result. */
  execute(params: ExecuteParams): Promise<AgentResult> {
    return executeRun(params, undefined);
  },
  /** Runs and reports every event as it happens; see AgentStream. */
  stream(params: ExecuteParams): AgentStream {
    return streamRun((emit) => executeRun(params, emit));
  },
};
