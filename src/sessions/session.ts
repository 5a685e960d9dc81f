import { compactOnce } from '../compaction/compact-messages.js';
import { PRUNE_STRATEGY_NAME } from '../compaction/prune-tool-results.js';
import { compactionDoneEvent, compactionStartEvent } from '../compaction/run-compaction.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult } from '../contracts/agent-result.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { type AgentStream, streamRun } from '../executor/stream-run.js';
import type { Message } from '../messages/types.js';
import type { SessionStore } from './store.js';

/** Options of one session turn. */
export interface SessionTurnOptions {
  abortSignal?: AbortSignal;
  onEvent?: AgentEventListener;
}

/** What session.compact() takes; every field falls back to the session's compaction settings. */
export interface SessionCompactOptions {
  strategy?: CompactionStrategy;
  protectedTokens?: number;
  thresholdPercent?: number;
  contextWindow?: number;
}

/** What session.compact() resolves to. */
export interface SessionCompactResult {
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  strategy: string;
  error?: Error;
}

/** What a Session needs from its agent. @internal */
export interface SessionRunner {
  /** Runs one turn on `messages` (the transcript with the new input at its end). */
  run(
    messages: Message[],
    options: SessionTurnOptions,
    emit: ((event: AgentEvent) => void) | undefined,
  ): Promise<AgentResult>;
  /** The agent's model, for estimates and the window (a local server's loaded window included). */
  provider(): LLMProvider;
  /** The compaction settings of the session (its own, else the agent's); undefined when compaction is off. */
  compaction: (SessionCompactOptions & { strategy: CompactionStrategy }) | undefined;
}

/**
 * A conversation that lasts across turns: each send() continues the transcript, which is
 * saved to the session's store after every turn. Compaction runs inside each turn as the
 * agent's does; compact() compacts the saved transcript now, and clear() empties it.
 *
 * @example
 * const session = agent.session();
 * await session.send('hello');
 * await session.compact({ protectedTokens: 2_000 });
 */
export class Session {
  readonly id: string;
  readonly #store: SessionStore;
  readonly #runner: SessionRunner;
  readonly #listeners = new Set<AgentEventListener>();
  #messages: Message[] = [];
  #loaded: Promise<void> | undefined;
  #busy = false;

  constructor(options: { id: string; store: SessionStore; runner: SessionRunner }) {
    this.id = options.id;
    this.#store = options.store;
    this.#runner = options.runner;
  }

  /** The transcript as of the last finished turn (a copy of the array). */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  /** Adds a listener for every event of the session (its turns, compact() and clear()); returns a function that removes it. */
  on(listener: AgentEventListener): () => void {
    if (typeof listener !== 'function') throw configError('session.on() takes a function (event) => void.');
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Loads what the store holds; called before the first turn, compact() or clear(). */
  load(): Promise<void> {
    this.#loaded ??= this.#store.load(this.id).then(
      (saved) => {
        this.#messages = saved ?? [];
      },
      (error: unknown) => {
        this.#loaded = undefined;
        throw error;
      },
    );
    return this.#loaded;
  }

  #emit(event: AgentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('@lousho/build-ai-agent: a session listener threw; the session goes on.', error);
      }
    }
  }

  #claim(what: string): void {
    if (this.#busy) {
      throw new LoushoError(
        'LOUSHO_SESSION_BUSY',
        `Session '${this.id}' cannot ${what} while one of its turns is running; wait for the turn to finish.`,
      );
    }
    this.#busy = true;
  }

  async #turn(
    input: string | Message,
    options: SessionTurnOptions,
    extraEmit?: (event: AgentEvent) => void,
  ): Promise<AgentResult> {
    await this.load();
    this.#claim('start another turn');
    try {
      const next: Message = typeof input === 'string' ? { role: 'user', content: input } : input;
      const listeners = this.#listeners.size > 0 || extraEmit !== undefined;
      const emit = listeners
        ? (event: AgentEvent) => {
            this.#emit(event);
            extraEmit?.(event);
          }
        : undefined;
      const result = await this.#runner.run([...this.#messages, next], options, emit);
      this.#messages = [...result.messages];
      await this.#store.save(this.id, this.#messages);
      return result;
    } finally {
      this.#busy = false;
    }
  }

  /** Runs one turn on `input` and resolves to its result; the transcript is saved after it. */
  send(input: string | Message, options: SessionTurnOptions = {}): Promise<AgentResult> {
    return this.#turn(input, options);
  }

  /** Runs one turn and yields its events; `.result` resolves to the result. */
  stream(input: string | Message, options: SessionTurnOptions = {}): AgentStream {
    return streamRun((emit) => this.#turn(input, options, emit));
  }

  /**
   * Compacts the transcript now, whatever its size, and saves it. Runs options.strategy,
   * else the session's compaction strategy (the agent's when the session sets none), else
   * prunes old tool results. Listeners get compaction.start / compaction.done with
   * trigger: 'manual'. Rejects with LOUSHO_SESSION_BUSY while a turn is running.
   */
  async compact(options: SessionCompactOptions = {}): Promise<SessionCompactResult> {
    await this.load();
    this.#claim('compact');
    try {
      const settings = { ...this.#runner.compaction, ...options };
      const before = this.#messages;
      if (before.length === 0) {
        const strategy = settings.strategy?.name ?? PRUNE_STRATEGY_NAME;
        return { messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0, strategy };
      }
      const manual = { trigger: 'manual' as const };
      const { outcome } = await compactOnce(
        before.slice(),
        { ...settings, model: this.#runner.provider() },
        'session.compact()',
        (start) => this.#emit(compactionStartEvent(manual, start)),
      );
      if (outcome.changed) {
        this.#messages = [...outcome.messages];
        await this.#store.save(this.id, this.#messages);
      }
      this.#emit(compactionDoneEvent(manual, outcome));
      return {
        messagesBefore: before.length,
        messagesAfter: this.#messages.length,
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
        strategy: outcome.strategy,
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
      };
    } finally {
      this.#busy = false;
    }
  }

  /** Empties the transcript, deletes what the store holds for the session and emits context.cleared. */
  async clear(): Promise<void> {
    await this.load();
    this.#claim('clear');
    try {
      this.#messages = [];
      await this.#store.delete(this.id);
      this.#emit({ type: 'context.cleared', sessionId: this.id });
    } finally {
      this.#busy = false;
    }
  }
}
