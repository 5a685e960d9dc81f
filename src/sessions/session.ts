import type { AgentEvent, AgentEventListener } from '../contracts/agent-event.js';
import type { AgentResult, PendingApproval } from '../contracts/agent-result.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { deliver } from '../executor/agent-events.js';
import { type AgentStream, streamRun } from '../executor/stream-run.js';
import type { Message } from '../messages/types.js';
import { checkReasoningOptions } from '../providers/reasoning-options.js';
import { compactSaved } from './compact-saved.js';
import { checkIdempotencyKey, keyedTurnOutcome } from './idempotency.js';
import { DEFAULT_LEASE_MS } from './lease.js';
import type { SessionCheckpoint } from './records.js';
import { decisionRecord, planResume, unfinishedTurn } from './resume-turn.js';
import { answeredTurn, runTurn, startRecords } from './run-turn.js';
import { SessionLog } from './session-log.js';
import type { KeyedTurn } from './session-state.js';
import type {
  SessionCompactOptions,
  SessionCompactResult,
  SessionRunner,
  SessionStatus,
  SessionTurnOptions,
} from './session-types.js';
import type { SessionStore } from './store.js';

/**
 * A conversation that lasts across turns, kept in a store as a log of checkpoints: each turn
 * saves after every step (the model's reply, each tool result, the step's end), so a process
 * that dies loses at most the step in flight, and another process can resume() the turn. A turn
 * holds the session's lease in its store, so one process at a time writes it. Compaction runs
 * inside each turn as the agent's does; compact() compacts the saved transcript now, and clear()
 * deletes everything.
 *
 * @example
 * const session = agent.session({ id: 'ticket-42', store: new FileSessionStore({ dir: './sessions' }) });
 * const result = await session.send('Deploy the fix.');
 * if (result.status === 'awaiting_approval') {
 *   await session.approve(result.pendingApprovals![0]!.toolCallId);
 *   await session.resume();
 * }
 */
export class Session {
  /** The session's id in its store. */
  readonly id: string;
  readonly #log: SessionLog;
  readonly #runner: SessionRunner;
  readonly #leaseMs: number;
  readonly #listeners = new Set<AgentEventListener>();
  #busy = false;
  #running = false;

  constructor(options: { id: string; store: SessionStore; runner: SessionRunner; leaseMs?: number }) {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isFinite(leaseMs) || leaseMs < 30) throw configError('leaseMs must be a number of ms, at least 30.');
    this.id = options.id;
    this.#runner = options.runner;
    this.#leaseMs = leaseMs;
    this.#log = new SessionLog(options.store, options.id, () => options.runner.provider().modelId);
  }

  /** The store the session is kept in. */
  get store(): SessionStore {
    return this.#log.store;
  }

  /** The transcript as saved (a copy), with the results an unfinished step already has. */
  get messages(): readonly Message[] {
    return [...this.#log.state.messages, ...this.#log.state.openResults()];
  }

  /** What the session is doing (as of the last load() or operation of this object). */
  get status(): SessionStatus {
    return this.#running ? 'running' : this.#log.state.status;
  }

  /** The turn sent with `idempotencyKey` (its number and whether it finished), as of the last load(); undefined for a key never sent. */
  turnOf(idempotencyKey: string): Readonly<KeyedTurn> | undefined {
    const seen = this.#log.state.keys.get(idempotencyKey);
    return seen === undefined ? undefined : { ...seen };
  }

  /** The calls its turn waits on that have no decision yet. */
  get pendingApprovals(): PendingApproval[] {
    return this.#log.state.undecided().map((a) => ({ ...a }));
  }

  /** Adds a listener for every event of the session (its turns, compact() and clear()); returns a function that removes it. */
  on(listener: AgentEventListener): () => void {
    if (typeof listener !== 'function') throw configError('session.on() takes a function (event) => void.');
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads what the store holds now (every operation does this itself, under the lease). */
  async load(): Promise<void> {
    if (!this.#busy) await this.#log.read();
  }

  #emit(event: AgentEvent): void {
    deliver(this.#listeners, event, 'a session', 'the session goes on');
  }

  /**
   * Runs `body` as this process's only operation on the session, holding its lease, on the state
   * the store holds (`whole`: with every checkpoint, for an operation that may go back to one).
   */
  async #exclusive<T>(what: string, running: boolean, body: () => Promise<T>, whole = false): Promise<T> {
    if (this.#busy) {
      throw new LoushoError(
        'LOUSHO_SESSION_BUSY',
        `Session '${this.id}' cannot ${what} while one of its turns (or another of its operations) is running; wait for it to finish.`,
        { details: { id: this.id } },
      );
    }
    this.#busy = true;
    try {
      await this.#log.acquire(what, this.#leaseMs);
      try {
        await this.#log.read({ whole });
        this.#running = running;
        return await body();
      } finally {
        await this.#log.release();
      }
    } finally {
      this.#busy = false;
      this.#running = false;
    }
  }

  #turn(input: string | Message, options: SessionTurnOptions, extraEmit?: (event: AgentEvent) => void) {
    const key = options.idempotencyKey;
    return this.#exclusive('start another turn', true, async () => {
      checkIdempotencyKey(key);
      checkReasoningOptions(options.reasoning, 'session.send()');
      if (key !== undefined) {
        const seen = keyedTurnOutcome(this.id, this.#log.state, key);
        if (seen !== undefined) return seen;
      }
      const blocked = unfinishedTurn(this.id, this.#log.state, 'start another turn');
      if (blocked !== undefined) throw blocked;
      const records = startRecords(this.#log.state, input, this.#runner.instructions);
      if (key !== undefined) records.push({ type: 'turn.key', key });
      await this.#log.append(records, { step: 0 });
      return runTurn(this.#log, this.#runner, {}, options, this.#emitter(extraEmit));
    });
  }

  #emitter(extraEmit: ((event: AgentEvent) => void) | undefined): ((event: AgentEvent) => void) | undefined {
    if (this.#listeners.size === 0 && extraEmit === undefined) return undefined;
    return (event) => {
      this.#emit(event);
      extraEmit?.(event);
    };
  }

  /**
   * Runs one turn on `input` and resolves to its result; the turn is saved after every step.
   * With `{ idempotencyKey }` (a queue's job id, say) it never starts a second turn for a key
   * the session has seen, in any process: it resolves to that turn's result when it finished,
   * else rejects with its state (LOUSHO_SESSION_TURN_PENDING, LOUSHO_SESSION_AWAITING_APPROVAL).
   */
  send(input: string | Message, options: SessionTurnOptions = {}): Promise<AgentResult> {
    return this.#turn(input, options);
  }

  /** Runs one turn and yields its events; `.result` resolves to the result. */
  stream(input: string | Message, options: SessionTurnOptions = {}): AgentStream {
    return streamRun((emit) => this.#turn(input, options, emit));
  }

  /**
   * Continues the unfinished turn from its last checkpoint: runs the approved calls, gives the
   * rejected ones an error result, runs again a call a crash interrupted only when its tool is
   * idempotent (else the model reads that it was interrupted), then goes on with the turn.
   * Rejects with LOUSHO_SESSION_IDLE when no turn is unfinished, LOUSHO_SESSION_AWAITING_APPROVAL
   * while a call has no decision, and LOUSHO_SESSION_BUSY while another process holds the session.
   */
  resume(options: SessionTurnOptions = {}): Promise<AgentResult> {
    return this.#exclusive('resume', true, async () => {
      const state = this.#log.state;
      const plan = planResume(this.id, state, (name) => this.#runner.tool(name));
      const answered = answeredTurn(state);
      if (answered !== undefined) {
        await this.#log.append([{ type: 'turn.done' }], { step: this.#lastStep() }); // only its end was not saved
        return answered;
      }
      if (plan.interrupted.length > 0) await this.#log.append(plan.interrupted);
      return runTurn(this.#log, this.#runner, plan.approvals, options, this.#emitter(undefined));
    });
  }

  /** Drops the unfinished turn: the session goes back to the end of its last finished turn. */
  cancelPending(): Promise<void> {
    return this.#exclusive(
      'cancel its pending turn',
      false,
      async () => {
        if (this.#log.state.pending === undefined) return;
        await this.#log.append([{ type: 'rewind', to: this.#log.state.lastIdle }]);
      },
      true,
    );
  }

  /**
   * Approves a call the turn waits on; session.resume() runs it. Once every call is decided the
   * session's status is 'decided'. A decision is final: approving again is a no-op, and
   * rejecting an approved call rejects with LOUSHO_SESSION_DECISION_FINAL, changing nothing.
   */
  approve(toolCallId: string): Promise<void> {
    return this.#decide(toolCallId, true, undefined);
  }

  /** Rejects a call the turn waits on; on session.resume() the model reads that it was rejected, and why. Final, as approve() is. */
  reject(toolCallId: string, options: { reason?: string } = {}): Promise<void> {
    return this.#decide(toolCallId, false, options.reason);
  }

  #decide(toolCallId: string, approved: boolean, reason: string | undefined): Promise<void> {
    return this.#exclusive(approved ? 'approve a call' : 'reject a call', false, async () => {
      const record = decisionRecord(this.id, this.#log.state, toolCallId, approved, reason);
      if (record !== undefined) await this.#log.append([record]);
    });
  }

  /** Every checkpoint the store holds for the session, oldest first (rewound ones included). */
  async checkpoints(): Promise<SessionCheckpoint[]> {
    await this.load();
    return this.#log.checkpoints();
  }

  /**
   * Makes a checkpoint current again: the transcript and the turn state go back to what they
   * were there (a checkpoint inside a turn leaves that turn pending, for resume()). The later
   * checkpoints stay in the history until clear().
   */
  rewind(checkpointId: string): Promise<void> {
    return this.#exclusive(
      'rewind',
      false,
      async () => {
        if (!this.#log.state.has(checkpointId)) {
          throw configError(
            `Session '${this.id}' has no checkpoint '${checkpointId}'; session.checkpoints() lists them.`,
          );
        }
        await this.#log.append([{ type: 'rewind', to: checkpointId }]);
      },
      true,
    );
  }

  #lastStep(): number {
    const state = this.#log.state;
    return state.pending?.step ?? state.currentStep;
  }

  /**
   * Compacts the transcript now, whatever its size, and saves it. Runs options.strategy,
   * else the session's compaction strategy (the agent's when the session sets none), else
   * prunes old tool results. Listeners get compaction.start / compaction.done with
   * trigger: 'manual'. Rejects with LOUSHO_SESSION_BUSY while a turn is running, and with
   * LOUSHO_SESSION_TURN_PENDING / LOUSHO_SESSION_AWAITING_APPROVAL while a turn is unfinished.
   */
  async compact(options: SessionCompactOptions = {}): Promise<SessionCompactResult> {
    return this.#exclusive('compact', false, async () => {
      const blocked = unfinishedTurn(this.id, this.#log.state, 'compact');
      if (blocked !== undefined) throw blocked;
      return compactSaved(this.#log, this.#runner, options, this.#lastStep(), (event) => this.#emit(event));
    });
  }

  /**
   * Empties the transcript, deletes everything the store holds for the session (every turn's
   * checkpoints and the checkpoint history) and emits context.cleared.
   */
  clear(): Promise<void> {
    return this.#exclusive('clear', false, async () => {
      await this.#log.store.delete(this.id);
      this.#log.reset();
      this.#emit({ type: 'context.cleared', sessionId: this.id });
    });
  }
}
