import { createRequestBudget } from '../compaction/request-budget.js';
import type { RunContext } from '../contracts/agent-hook.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ReportedModelCall } from '../contracts/model-call.js';
import type { RequestBudget } from '../contracts/request-budget.js';
import type { RunUsage } from '../contracts/run-usage.js';
import { LoushoError } from '../errors/lousho-error.js';
import { addCall, emptyUsage } from '../executor/usage.js';
import type { Message } from '../messages/types.js';

let counter = 0;

function notOurs(framework: string): never {
  throw new LoushoError(
    'LOUSHO_CONFIG_INVALID',
    `This conversation's model calls are made by ${framework}; a hook cannot call run.provider here.`,
  );
}

/**
 * A run as the compaction hook sees it, for a loop that another framework (the AI SDK, the
 * OpenAI Agents SDK) drives: its steps, its transcript, and the summarizer calls of its
 * compactions in `usage`. It has no provider of its own: the framework makes the calls.
 */
export class ForeignRun implements RunContext {
  readonly runId: string;
  step = 0;
  readonly messages: Message[];
  readonly usage: RunUsage = emptyUsage();
  readonly provider: LLMProvider;
  abortSignal: AbortSignal | undefined;
  readonly budget: RequestBudget;
  readonly #hookMemory = new Map<string, unknown>();

  constructor(messages: Message[], framework: string, modelId: string) {
    counter++;
    this.runId = `${framework.replace(/\W+/g, '-').toLowerCase()}_${Date.now().toString(36)}_${counter}`;
    this.messages = messages;
    this.provider = {
      provider: framework,
      modelId,
      generate: () => notOurs(framework),
      stream: () => notOurs(framework),
    };
    this.budget = createRequestBudget({ model: modelId });
  }

  hookMemory<T>(hook: string, create: () => T): T {
    if (!this.#hookMemory.has(hook)) this.#hookMemory.set(hook, create());
    return this.#hookMemory.get(hook) as T;
  }

  recordModelCall(call: ReportedModelCall): void {
    const { startTime: _start, endTime: _end, ...rest } = call;
    addCall(this.usage, { ...rest, step: this.step });
  }
}
