import { type CompactionHookOptions, createCompactionHook } from '../compaction/compaction-hook.js';
import type { AgentEvent, CompactionEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { Message } from '../messages/types.js';
import { ForeignRun } from './foreign-run.js';
import { sameValue } from './same-value.js';

/** Options of the compaction that runs inside another framework's loop: the compaction hook's, and a listener. */
export interface FrameworkCompactionOptions extends CompactionHookOptions {
  /** The model id for the context-window lookup and the tokenizer; by default the framework's model id. */
  model?: string;
  /** Receives compaction.start and compaction.done, as agent.stream() reports them. */
  onEvent?: (event: CompactionEvent) => void;
}

/**
 * One conversation that another framework sends whole on every call, compacted by the
 * compaction hook as if it were one of our runs. It keeps the compacted transcript between
 * calls: when the next prompt continues the last one, only the messages added since are
 * converted and appended, so compaction does not start over (a summary is not written
 * again, the prompt cache keeps its prefix) and the hook's token counts grow with what is
 * new. Recognising the old part costs a comparison of the messages (by reference first).
 */
export class ConversationCompaction<P> {
  readonly #hook: AgentHook;
  readonly #framework: string;
  readonly #emit: ((event: AgentEvent) => void) | undefined;
  #run: ForeignRun | undefined;
  #seen: readonly P[] = [];
  #compacted = false;
  #request: ModelRequest | undefined;

  constructor(hook: AgentHook, framework: string, onEvent?: (event: CompactionEvent) => void) {
    this.#hook = hook;
    this.#framework = framework;
    this.#emit = onEvent === undefined ? undefined : (event) => onEvent(event as CompactionEvent);
  }

  /** The summarizer calls its compactions made, as a run's usage. */
  get usage(): ForeignRun['usage'] | undefined {
    return this.#run?.usage;
  }

  /** How many messages of `prompt` continue what this conversation saw last: all it saw, or -1 when it does not continue. */
  continues(prompt: readonly P[]): number {
    const seen = this.#seen;
    if (seen.length === 0 || prompt.length < seen.length) return -1;
    for (let i = 0; i < seen.length; i++) if (prompt[i] !== seen[i] && !sameValue(prompt[i], seen[i])) return -1;
    return seen.length;
  }

  /**
   * Compacts the conversation about to be sent and resolves to our transcript of it (the
   * same array from call to call). `convert` turns framework messages into ours; it is
   * given only the messages added since the last call. `changed` says whether this call
   * compacted; `compacted` is false until a compaction has changed the transcript: until
   * then the framework's prompt can go as it is.
   */
  async compact(
    prompt: readonly P[],
    convert: (added: readonly P[]) => Message[],
    request: Omit<ModelRequest, 'messages'>,
    abortSignal?: AbortSignal,
  ): Promise<{ messages: Message[]; compacted: boolean; changed: boolean }> {
    const from = this.continues(prompt);
    let run = this.#run;
    if (run === undefined || from < 0) {
      run = new ForeignRun([], this.#framework, request.model);
      this.#run = run;
      this.#compacted = false;
    }
    run.messages.push(...convert(from < 0 ? prompt : prompt.slice(from)));
    this.#seen = prompt.slice();
    run.step++;
    run.abortSignal = abortSignal;
    const before = run.messages.slice();
    this.#request = { ...request, messages: run.messages };
    await this.#hook.preGenerate?.({
      request: this.#request,
      run,
      ...(this.#emit === undefined ? {} : { emit: this.#emit }),
    });
    const after = run.messages;
    const changed = after.length !== before.length || after.some((m, i) => m !== before[i]);
    if (changed) this.#compacted = true;
    return { messages: after, compacted: this.#compacted, changed };
  }

  /**
   * Tells the conversation that the framework now holds `prompt` for its transcript (a
   * session that stored the compacted messages), so the next call that continues it is
   * recognised.
   */
  settle(prompt: readonly P[]): void {
    this.#seen = prompt.slice();
  }

  /** The prompt tokens the provider counted for the call just made: calibrates the next estimate. */
  async reported(inputTokens: number | undefined): Promise<void> {
    if (this.#run === undefined || this.#request === undefined) return;
    // As the step loop does after each call: the provider's prompt count calibrates the run's budget.
    this.#run.budget.calibrate(this.#request, inputTokens);
  }
}

/** A few conversations at once (a model or a loop shared by several chats): each prompt goes to the one it continues. */
export class ConversationPool<P> {
  readonly #items: ConversationCompaction<P>[] = [];
  readonly #make: () => ConversationCompaction<P>;
  readonly #size: number;

  constructor(options: FrameworkCompactionOptions, framework: string, size = 8) {
    const { onEvent, model: _model, ...hookOptions } = options;
    const hook = createCompactionHook(hookOptions);
    this.#make = () => new ConversationCompaction<P>(hook, framework, onEvent);
    this.#size = size;
  }

  /** The conversation `prompt` continues (the longest), or a new one in place of the least recently used. */
  pick(prompt: readonly P[]): ConversationCompaction<P> {
    let best: ConversationCompaction<P> | undefined;
    let length = -1;
    for (const item of this.#items) {
      const n = item.continues(prompt);
      if (n > length) [best, length] = [item, n];
    }
    if (best === undefined || length < 0) {
      best = this.#make();
      if (this.#items.length >= this.#size) this.#items.pop();
    } else this.#items.splice(this.#items.indexOf(best), 1);
    this.#items.unshift(best);
    return best;
  }
}
