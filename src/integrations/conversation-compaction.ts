import { type CompactionHookOptions, createCompactionHook } from '../compaction/compaction-hook.js';
import type { AgentEvent, CompactionEvent } from '../contracts/agent-event.js';
import type { AgentHook } from '../contracts/agent-hook.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { Message } from '../messages/types.js';
import { ForeignRun } from './foreign-run.js';
import { SeenPrefix } from './seen-prefix.js';

/** Options of the compaction that runs inside another framework's loop: the compaction hook's, and a listener. */
export interface FrameworkCompactionOptions extends CompactionHookOptions {
  /** The model id for the context-window lookup and the tokenizer; by default the framework's model id. */
  model?: string;
  /** Receives compaction.start and compaction.done, as agent.stream() reports them. */
  onEvent?: (event: CompactionEvent) => void;
}

/** What one call of {@link ConversationCompaction.compact} resolves to. */
export interface CompactedConversation {
  /** Our transcript of the conversation (the same array from call to call). */
  messages: Message[];
  /** False until a compaction has changed the transcript: until then the framework's prompt can go as it is. */
  compacted: boolean;
  /** Whether this call compacted. */
  changed: boolean;
  /** The first message that differs from the transcript the previous call resolved to (0 for a new conversation). */
  from: number;
}

/** What the conversation has done so far, in units that do not depend on the machine: for tests and benchmarks. */
export interface ConversationWork {
  /** Framework messages handed to `convert`. */
  converted: number;
  /** Framework messages compared by value to recognise a continued prompt. */
  compared: number;
}

/**
 * One conversation that another framework sends whole on every call, compacted by the
 * compaction hook as if it were one of our runs. It keeps the compacted transcript between
 * calls: when the next prompt continues the last one, only the messages added since are
 * converted and appended, so compaction does not start over (a summary is not written
 * again, the prompt cache keeps its prefix) and the hook's token counts grow with what is
 * new. Recognising the old part compares a few messages (see SeenPrefix), not all of them.
 */
export class ConversationCompaction<P> {
  readonly #hook: AgentHook;
  readonly #framework: string;
  readonly #emit: ((event: AgentEvent) => void) | undefined;
  #run: ForeignRun | undefined;
  readonly #seen = new SeenPrefix<P>();
  #compacted = false;
  #request: ModelRequest | undefined;
  /** The prompt continues() was last asked about, and its answer (a pool asks before compact() does). */
  #asked: { prompt: readonly P[]; from: number } | undefined;
  #converted = 0;
  readonly #window: number | undefined;

  constructor(
    hook: AgentHook,
    framework: string,
    onEvent?: (event: CompactionEvent) => void,
    /** The context window the hook was given, for the overflow recovery; else the model's, when known. */
    contextWindow?: number,
  ) {
    this.#window = contextWindow;
    this.#hook = hook;
    this.#framework = framework;
    this.#emit = onEvent === undefined ? undefined : (event) => onEvent(event as CompactionEvent);
  }

  /** The summarizer calls its compactions made, as a run's usage. */
  get usage(): ForeignRun['usage'] | undefined {
    return this.#run?.usage;
  }

  /** The work done so far. */
  get work(): ConversationWork {
    return { converted: this.#converted, compared: this.#seen.compared };
  }

  /** How many messages of `prompt` continue what this conversation saw last: all it saw, or -1 when it does not continue. */
  continues(prompt: readonly P[]): number {
    if (this.#asked?.prompt === prompt) return this.#asked.from;
    const from = this.#seen.continues(prompt);
    this.#asked = { prompt, from };
    return from;
  }

  /**
   * Compacts the conversation about to be sent and resolves to our transcript of it.
   * `convert` turns framework messages into ours; it is given only the messages added
   * since the last call.
   */
  async compact(
    prompt: readonly P[],
    convert: (added: readonly P[]) => Message[],
    request: Omit<ModelRequest, 'messages'>,
    abortSignal?: AbortSignal,
  ): Promise<CompactedConversation> {
    const from = this.continues(prompt);
    this.#asked = undefined;
    if (this.#run === undefined || from < 0) return this.#step(undefined, prompt, convert, request, abortSignal);
    return this.#step(this.#run, from === prompt.length ? [] : prompt.slice(from), convert, request, abortSignal);
  }

  /**
   * Like compact(), for a caller that knows what was added since the last call (a session
   * that saw every item stored): nothing is compared.
   */
  compactAdded(
    added: readonly P[],
    convert: (added: readonly P[]) => Message[],
    request: Omit<ModelRequest, 'messages'>,
  ): Promise<CompactedConversation> {
    return this.#step(this.#run, added, convert, request, undefined);
  }

  async #step(
    current: ForeignRun | undefined,
    added: readonly P[],
    convert: (added: readonly P[]) => Message[],
    request: Omit<ModelRequest, 'messages'>,
    abortSignal: AbortSignal | undefined,
  ): Promise<CompactedConversation> {
    let run = current;
    if (run === undefined) {
      run = new ForeignRun([], this.#framework, request.model);
      this.#run = run;
      this.#compacted = false;
      this.#seen.reset([]);
    }
    const kept = current === undefined ? 0 : run.messages.length;
    this.#converted += added.length;
    for (const m of convert(added)) run.messages.push(m);
    this.#seen.extend(added);
    run.step++;
    run.abortSignal = abortSignal;
    // Our hook rewrites the transcript through run.transcript, which says where: nothing is copied or compared.
    const length = run.messages.length;
    const version = run.transcript.version;
    this.#request = { ...request, messages: run.messages };
    const ctx = { request: this.#request, run, ...(this.#emit === undefined ? {} : { emit: this.#emit }) };
    await this.#hook.preGenerate?.(ctx);
    // As the step loop does before sending: a request over the window goes to the overflow recovery.
    const window = this.#window ?? (await run.budget.contextWindow({ unknown: 'none' }));
    if (window !== undefined && this.#hook.recover !== undefined && run.budget.measure(this.#request) > window)
      await this.#hook.recover({ ...ctx, reason: 'preflight', targetTokens: window });
    const after = run.messages;
    const first = Math.min(run.transcript.changedSince(version) ?? length, length, after.length);
    const changed = first < length || after.length !== length;
    if (changed) this.#compacted = true;
    return { messages: after, compacted: this.#compacted, changed, from: Math.min(first, kept) };
  }

  /**
   * Tells the conversation that the framework now holds `tail` after its first `keep`
   * messages (a session that stored the compacted messages), so the next call that
   * continues it is recognised.
   */
  settle(keep: number, tail: readonly P[]): void {
    this.#seen.replaceFrom(keep, tail);
    this.#asked = undefined;
  }

  /** The newest framework message the conversation holds. */
  get last(): P | undefined {
    return this.#seen.last;
  }

  /** How many framework messages the conversation holds. */
  get length(): number {
    return this.#seen.length;
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
    this.#make = () => new ConversationCompaction<P>(hook, framework, onEvent, options.contextWindow);
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
