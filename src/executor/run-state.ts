import type { Context } from '@opentelemetry/api';
import { createRequestBudget } from '../compaction/request-budget.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { RunContext } from '../contracts/agent-hook.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { RequestBudget } from '../contracts/request-budget.js';
import type { RunUsage } from '../contracts/run-usage.js';
import { Transcript } from '../messages/transcript.js';
import type { Message } from '../messages/types.js';
import { endChatSpan, startChatSpan } from '../telemetry/tracing.js';
import { addCall, emptyUsage } from './usage.js';

let runCounter = 0;

/** The mutable state of one run, seen by hooks as a RunContext. */
export class RunState implements RunContext {
  readonly runId: string;
  /** The current step, from 1 (0 before the first). */
  step = 0;
  /** Steps whose model reply is in the transcript: what `result.steps` and `limits.maxSteps` count. */
  completedSteps = 0;
  /** The run's transcript; `messages` is its array. */
  readonly transcript: Transcript;
  readonly messages: Message[];
  readonly usage: RunUsage = emptyUsage();
  readonly provider: LLMProvider;
  /** The run's abort signal (a loop another framework drives sets it at each step). */
  abortSignal: AbortSignal | undefined;
  readonly emit: ((event: AgentEvent) => void) | undefined;
  readonly budget: RequestBudget;
  /** The trace context of the run's span, parent of its model and tool spans. */
  traceContext: Context | undefined;
  readonly #hookMemory = new Map<string, unknown>();

  constructor(options: {
    messages: Message[];
    provider: LLMProvider;
    abortSignal: AbortSignal | undefined;
    emit: ((event: AgentEvent) => void) | undefined;
    /** What the run's id starts with: `run` for ours, the framework's name for a loop another framework drives. */
    idPrefix?: string;
  }) {
    runCounter++;
    this.runId = `${options.idPrefix ?? 'run'}_${Date.now().toString(36)}_${runCounter}`;
    this.transcript = new Transcript(options.messages);
    this.messages = options.messages;
    this.provider = options.provider;
    this.abortSignal = options.abortSignal;
    this.emit = options.emit;
    this.budget = createRequestBudget({
      model: options.provider.modelId,
      provider: options.provider,
      transcript: this.transcript,
    });
  }

  hookMemory<T>(hook: string, create: () => T): T {
    if (!this.#hookMemory.has(hook)) this.#hookMemory.set(hook, create());
    return this.#hookMemory.get(hook) as T;
  }

  recordModelCall(call: ReportedModelCall): void {
    const { startTime, endTime, ...rest } = call;
    addCall(this.usage, { ...rest, step: this.step });
    // The summarizer's call gets its chat span under the run's span, after the fact.
    const span = startChatSpan(this.traceContext, { ...rest, ...(startTime === undefined ? {} : { startTime }) });
    endChatSpan(span, { usage: call.usage, ...(endTime === undefined ? {} : { endTime }) });
  }
}
