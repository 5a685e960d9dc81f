import type { Context } from '@opentelemetry/api';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { RunContext } from '../contracts/agent-hook.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { RunUsage } from '../contracts/run-usage.js';
import type { Message } from '../messages/types.js';
import { endChatSpan, startChatSpan } from '../telemetry/tracing.js';
import { addCall, emptyUsage } from './usage.js';

let runCounter = 0;

/** The mutable state of one run, seen by hooks as a RunContext. */
export class RunState implements RunContext {
  readonly runId: string;
  step = 0;
  readonly messages: Message[];
  readonly usage: RunUsage = emptyUsage();
  readonly provider: LLMProvider;
  readonly abortSignal: AbortSignal | undefined;
  readonly emit: ((event: AgentEvent) => void) | undefined;
  learnedContextWindow: number | undefined;
  /** The trace context of the run's span, parent of its model and tool spans. */
  traceContext: Context | undefined;
  /** What a hook noted about this step's request: the window and the size it worked with. */
  noted: { step: number; contextWindow: number; tokens: number } | undefined;
  #window: Promise<number | undefined> | undefined;

  constructor(options: {
    messages: Message[];
    provider: LLMProvider;
    abortSignal: AbortSignal | undefined;
    emit: ((event: AgentEvent) => void) | undefined;
  }) {
    runCounter++;
    this.runId = `run_${Date.now().toString(36)}_${runCounter}`;
    this.messages = options.messages;
    this.provider = options.provider;
    this.abortSignal = options.abortSignal;
    this.emit = options.emit;
  }

  noteRequestSize(size: { contextWindow: number; tokens: number }): void {
    this.noted = { step: this.step, ...size };
  }

  recordModelCall(call: ReportedModelCall): void {
    const { startTime, endTime, ...rest } = call;
    addCall(this.usage, { ...rest, step: this.step });
    // The summarizer's call gets its chat span under the run's span, after the fact.
    const span = startChatSpan(this.traceContext, { ...rest, ...(startTime === undefined ? {} : { startTime }) });
    endChatSpan(span, { usage: call.usage, ...(endTime === undefined ? {} : { endTime }) });
  }

  providerContextWindow(): Promise<number | undefined> {
    const ask = this.provider.contextWindow;
    if (ask === undefined) return Promise.resolve(undefined);
    // Asked once per run; a server that cannot tell yet (a model not loaded) is asked again next time.
    this.#window ??= ask.call(this.provider).then(
      (value) => {
        if (value === undefined) this.#window = undefined;
        return value;
      },
      () => {
        this.#window = undefined;
        return undefined;
      },
    );
    return this.#window;
  }
}
