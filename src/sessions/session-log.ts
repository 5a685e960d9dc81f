import { TranscriptCounter } from '../compaction/transcript-counter.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { tokenProfile } from '../models/estimate-tokens.js';
import { holderIsDead, newHolderId, sessionBusy } from './lease.js';
import { decodeEntry, encodeEntry, type SessionRecord } from './records.js';
import { SessionState } from './session-state.js';
import type { SessionStore } from './store.js';
import { storeInvalid } from './store-errors.js';

/**
 * One session's log in its store, as a writer sees it: the replayed state, the version it
 * was read at, the lease, and a queue that saves batches of records one after the other,
 * each only if the session's version is still the one this writer knows.
 */
export class SessionLog {
  readonly store: SessionStore;
  readonly id: string;
  readonly holder = newHolderId();
  state = new SessionState();
  #version = 0;
  /** The last entry of the log as this writer knows it (with the version, tells a log that changed). */
  #last: string | undefined;
  #queue: Promise<void> = Promise.resolve();
  #failure: unknown;
  #lost = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ttlMs = 0;
  /** Until when (performance.now()) the lease is surely this writer's. */
  #heldUntil = 0;
  #controller = new AbortController();
  readonly #counter = new TranscriptCounter();
  readonly #model: () => string;

  constructor(store: SessionStore, id: string, model: () => string) {
    const missing = ['read', 'append', 'delete', 'acquire', 'renew', 'release'].filter(
      (name) => typeof (store as unknown as Record<string, unknown>)?.[name] !== 'function',
    );
    if (missing.length > 0) {
      throw configError(
        `agent.session({ store }) needs a SessionStore; this one has no ${missing.join(', ')}. Use MemorySessionStore, ` +
          'FileSessionStore, SqliteSessionStore, KVSessionStore or PostgresSessionStore, or implement the SessionStore ' +
          'interface (an append-only log per session and a lease).',
      );
    }
    if (typeof id !== 'string' || id === '') throw configError('agent.session({ id }) needs a non-empty string id.');
    this.store = store;
    this.id = id;
    this.#model = model;
  }

  /** Reads the whole log and replays it (unless nothing was appended since this writer last saw it). */
  async read(): Promise<void> {
    const { entries, version } = await this.store.read(this.id);
    if (this.#failure === undefined && version === this.#version && entries.at(-1) === this.#last) return;
    const state = new SessionState();
    entries.forEach((entry, i) => {
      let records: SessionRecord[];
      try {
        records = decodeEntry(entry);
      } catch (cause) {
        throw storeInvalid(this.store, this.id, `entry ${i + 1} of its log is not one this library wrote`, cause);
      }
      for (const record of records) state.apply(record);
    });
    this.state = state;
    this.#version = version;
    this.#last = entries.at(-1);
    this.#failure = undefined;
  }

  /**
   * Takes the lease (over a provably dead holder too) and keeps renewing it; throws
   * LOUSHO_SESSION_BUSY. The lease counts as held until `ttlMs` after the last acquire or renew
   * was sent, by this process's monotonic clock (which runs on while the process is paused).
   */
  async acquire(what: string, ttlMs: number): Promise<void> {
    const sent = performance.now();
    let lease = await this.store.acquire(this.id, this.holder, ttlMs);
    if (!lease.acquired && holderIsDead(lease.holder)) {
      lease = await this.store.acquire(this.id, this.holder, ttlMs, lease.holder);
    }
    if (!lease.acquired) throw sessionBusy(this.id, what, lease, ttlMs);
    this.#lost = false;
    this.#ttlMs = ttlMs;
    this.#heldUntil = sent + ttlMs;
    this.#controller = new AbortController();
    this.#timer = setInterval(
      () => {
        this.#renew().catch(() => {}); // a blip: the next renewal tries again, and every save checks first
      },
      Math.max(10, Math.floor(ttlMs / 3)),
    );
    this.#timer.unref?.();
  }

  /** Fires when this writer loses the lease: the turn's tools get it as their abort signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  async #renew(): Promise<void> {
    const sent = performance.now();
    if (await this.store.renew(this.id, this.holder, this.#ttlMs)) {
      this.#heldUntil = Math.max(this.#heldUntil, sent + this.#ttlMs);
      return;
    }
    this.#lose();
  }

  #lose(): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#controller.abort(
      new LoushoError(
        'LOUSHO_SESSION_CONFLICT',
        `Session '${this.id}' lost its lease in ${this.store.description} (another process took it over); nothing more was saved.`,
        { details: { id: this.id, store: this.store.description } },
      ),
    );
  }

  /** Before a save: a lease whose time ran out (a pause, a slow renewal) is renewed first, or the writer stops. */
  async #checkLease(): Promise<void> {
    if (this.#timer === undefined || this.#lost || performance.now() < this.#heldUntil) return;
    await this.#renew();
  }

  /** Stops renewing and gives the lease back (a failure here only lets it run out). */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#queue.catch(() => {});
    await this.store.release(this.id, this.holder).catch(() => {});
  }

  /**
   * Saves `records` as one entry, after the saves already queued, and applies them to the
   * state; `checkpoint` adds a checkpoint of the state they lead to (its step).
   */
  append(records: SessionRecord[], checkpoint?: { step: number }): Promise<void> {
    if (records.length === 0 && checkpoint === undefined) return this.#queue;
    const run = async () => {
      if (this.#failure !== undefined) throw this.#failure;
      await this.#checkLease();
      if (this.#lost) throw this.#controller.signal.reason;
      const text = encodeEntry(records);
      const copies = decodeEntry(text); // the state keeps its own copies, which no run can change
      for (const record of copies) this.state.apply(record);
      let entry = text;
      if (checkpoint !== undefined) {
        const record: SessionRecord = { type: 'checkpoint', checkpoint: this.#checkpointOf(checkpoint.step) };
        this.state.apply(record);
        entry = records.length === 0 ? encodeEntry([record]) : `${text.slice(0, -1)},${encodeEntry([record]).slice(1)}`;
      }
      try {
        this.#version = await this.store.append(this.id, entry, this.#version);
        this.#last = entry;
      } catch (error) {
        this.#failure = error; // the state is ahead of the log now: the next operation reads the log again
        throw error;
      }
    };
    const done = this.#queue.then(run, run);
    this.#queue = done.catch(() => {});
    return done;
  }

  #checkpointOf(step: number) {
    const state = this.state;
    return {
      id: `cp-${state.checkpoints.length + 1}`,
      turn: state.pending?.turn ?? state.turns,
      step,
      time: Date.now(),
      messageCount: state.messages.length,
      tokens: this.#counter.count(state.messages, tokenProfile(this.#model())),
    };
  }

  /** Forgets everything (after the store deleted the session). */
  reset(): void {
    this.state = new SessionState();
    this.#version = 0;
    this.#last = undefined;
  }
}
