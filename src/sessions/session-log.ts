import { TranscriptCounter } from '../compaction/transcript-counter.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { tokenProfile } from '../models/estimate-tokens.js';
import { forgetLog, knownLog, rememberLog } from './known-logs.js';
import { LeaseKeeper } from './lease-keeper.js';
import { applyAfter, replay, UnreadableEntry } from './log-replay.js';
import { decodeEntry, encodeEntry, type SessionCheckpoint, type SessionRecord } from './records.js';
import { HistoryNeeded, LogInconsistent, SessionState } from './session-state.js';
import { restoreSnapshot, snapshotRecord } from './state-snapshot.js';
import type { SessionLogTail, SessionStore } from './store.js';
import { lateSave, storeInvalid } from './store-errors.js';

/**
 * Characters of entries after the newest snapshot below which a tail is never saved as a
 * snapshot: a small log is read whole for less than a snapshot costs to write.
 */
const TAIL_SNAPSHOT_MIN = 32_768;

/**
 * One session's log in its store, as a writer sees it: the replayed state, the version it
 * was read at, the lease, and a queue that saves batches of records one after the other,
 * each only if the session's version is still the one this writer knows. Opening a session
 * reads its newest snapshot and what came after it (a compaction's rewrite is saved as a
 * snapshot of the whole state); the checkpoints before that snapshot are read when asked for.
 */
export class SessionLog {
  readonly store: SessionStore;
  readonly id: string;
  state = new SessionState();
  #version = 0;
  /** The last entry of the log as this writer knows it (with the version, tells a log that changed). */
  #last: string | undefined;
  /** Characters of the newest snapshot entry this writer knows (0: none), and of the entries after it. */
  #snapshotChars = 0;
  #sinceChars = 0;
  #queue: Promise<void> = Promise.resolve();
  #failure: unknown;
  /** Set once an operation let go of the lease: a save that comes after it (a run's work an abort left going) is refused. */
  #released = false;
  readonly #lease: LeaseKeeper;
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
    this.#lease = new LeaseKeeper(store, id, {
      unchanged: async () => {
        const last = this.#last;
        if (typeof this.store.readAfter === 'function' && last !== undefined)
          return (await this.store.readAfter(this.id, this.#version, last))?.entries.length === 0;
        const { version, entries } = await this.#readStore(false);
        return version === this.#version && entries.at(-1) === this.#last;
      },
      enqueue: (task) => {
        const done = this.#queue.then(task, task);
        this.#queue = done.catch(() => {});
      },
    });
  }

  /** The holder id this writer takes the lease with. */
  get holder(): string {
    return this.#lease.holder;
  }

  #readStore(whole: boolean): Promise<SessionLogTail> {
    if (!whole && typeof this.store.readLatest === 'function') return this.store.readLatest(this.id);
    return this.store.read(this.id).then((log) => ({ ...log, fromSnapshot: false }));
  }

  /**
   * Reads the log from its newest snapshot and replays it (unless nothing was appended since
   * this writer last saw it); `whole` reads every entry, so the state knows every checkpoint.
   */
  async read(options: { whole?: boolean } = {}): Promise<void> {
    const whole = options.whole === true;
    if (!whole && this.#last === undefined) this.#fromKnown();
    if (!whole && (await this.#readAfter())) return this.#remember();
    const log = await this.#readStore(whole);
    const same = log.version === this.#version && log.entries.at(-1) === this.#last;
    if (this.#failure === undefined && same && (!whole || !this.state.partial)) return;
    let state: SessionState;
    try {
      state = replay(log);
    } catch (error) {
      if (error instanceof HistoryNeeded && !whole) return this.read({ whole: true });
      if (error instanceof UnreadableEntry) {
        const which = log.fromSnapshot ? `entry ${error.index + 1} after its snapshot` : `entry ${error.index + 1}`;
        throw storeInvalid(this.store, this.id, `${which} of its log ${error.what}`, error.reason);
      }
      throw error;
    }
    this.state = state;
    this.#version = log.version;
    this.#last = log.entries.at(-1);
    const chars = log.entries.map((entry) => entry.length);
    this.#snapshotChars = log.fromSnapshot ? (chars[0] ?? 0) : 0;
    this.#sinceChars = chars.reduce((a, b) => a + b, 0) - this.#snapshotChars;
    this.#failure = undefined;
    this.#remember();
  }

  /** Starts from what this process last knew of the log (see known-logs.ts), to read only what came after. */
  #fromKnown(): void {
    const seen = knownLog(this.store, this.id);
    if (seen === undefined || typeof this.store.readAfter !== 'function') return;
    this.state = new SessionState();
    restoreSnapshot(this.state, seen.record);
    [this.#version, this.#last] = [seen.version, seen.last];
    [this.#snapshotChars, this.#sinceChars] = [seen.snapshotChars, seen.sinceChars];
  }

  /** Tells this process what this writer knows now (the state and the version agree: nothing is being saved). */
  #remember(): void {
    if (this.#failure !== undefined || this.#last === undefined) {
      forgetLog(this.store, this.id);
      return;
    }
    rememberLog(this.store, this.id, {
      record: snapshotRecord(this.state),
      version: this.#version,
      last: this.#last,
      snapshotChars: this.#snapshotChars,
      sinceChars: this.#sinceChars,
    });
  }

  /**
   * Reads only what was appended since this writer last knew the log (the store's
   * readAfter()) and applies it to the state; false when that cannot be done (no such
   * method, nothing known yet, a failed save, or a log deleted or written again since),
   * and the caller reads the log from its newest snapshot.
   */
  async #readAfter(): Promise<boolean> {
    const last = this.#last;
    if (typeof this.store.readAfter !== 'function' || last === undefined || this.#failure !== undefined) return false;
    const log = await this.store.readAfter(this.id, this.#version, last);
    if (log === undefined) return false;
    if (log.entries.length === 0) return true;
    try {
      const { snapshot, since } = applyAfter(this.state, log.entries);
      if (snapshot !== undefined) [this.#snapshotChars, this.#sinceChars] = [snapshot, since];
      else this.#sinceChars += since;
    } catch {
      // The state took part of it: known as no version, so the caller replays the log (and
      // names what is wrong), and no save can follow from it.
      this.#version = -1;
      this.#last = undefined;
      return false;
    }
    this.#version = log.version;
    this.#last = log.entries.at(-1);
    return true;
  }

  /** Every checkpoint the log holds, with its token count (counted now for those saved without one). */
  async checkpoints(): Promise<SessionCheckpoint[]> {
    let state = this.state;
    if (state.partial) {
      const log = await this.#readStore(true);
      state = replay(log);
    }
    const counter = new TranscriptCounter();
    const profile = tokenProfile(this.#model());
    return state.checkpoints.map((c) => ({
      ...c,
      tokens: c.tokens ?? counter.count(state.messagesAt(c.id) ?? [], profile),
    }));
  }

  /** Takes the lease (over a provably dead holder too) and keeps renewing it; throws LOUSHO_SESSION_BUSY. */
  async acquire(what: string, ttlMs: number): Promise<void> {
    await this.#lease.acquire(what, ttlMs);
    this.#released = false;
  }

  /** Fires when this writer is lost (its lease, or a save that found the log moved): the turn's tools get it as their abort signal. */
  get signal(): AbortSignal {
    return this.#lease.signal;
  }

  /** Stops renewing and gives the lease back (a failure here only lets it run out). */
  async release(): Promise<void> {
    this.#released = true;
    await this.#queue.catch(() => {});
    this.#remember();
    await this.#lease.release();
  }

  /**
   * Saves `records` as one entry, after the saves already queued, and applies them to the
   * state; `checkpoint` adds a checkpoint of the state they lead to (its step). A rewrite is
   * saved as a snapshot of the whole state, where a later read may start. A tail is saved as
   * itself, what changed, until the entries after the newest snapshot outgrow that snapshot
   * (and TAIL_SNAPSHOT_MIN): that one is saved as a snapshot, so a read never costs much more
   * than twice the state, and the snapshots, written ever further apart as the state grows,
   * cost each turn about what the turn wrote. Records that only add are never one: the state
   * holds them anyway.
   */
  append(records: SessionRecord[], checkpoint?: { step: number }): Promise<void> {
    if (records.length === 0 && checkpoint === undefined) return this.#queue;
    if (this.#released) return Promise.reject(lateSave(this.store, this.id));
    const run = async () => {
      if (this.#failure !== undefined) throw this.#failure;
      await this.#lease.check();
      if (this.#lease.lost) throw this.#lease.signal.reason;
      const text = encodeEntry(records);
      const since = this.#sinceChars + text.length;
      const tails = since > Math.max(this.#snapshotChars, TAIL_SNAPSHOT_MIN);
      const saved: SessionRecord[] = [];
      let snapshot = false;
      for (const record of decodeEntry(text)) {
        // the state keeps its own copies, which no run can change
        this.#apply(record);
        const whole = record.type === 'rewrite' || (tails && record.type === 'tail');
        snapshot ||= whole;
        saved.push(whole ? snapshotRecord(this.state) : record);
      }
      let entry = snapshot ? encodeEntry(saved) : text;
      if (checkpoint !== undefined) {
        const record: SessionRecord = { type: 'checkpoint', checkpoint: this.#checkpointOf(checkpoint.step) };
        this.state.apply(record);
        const added = encodeEntry([record]).slice(1);
        entry = records.length === 0 ? `[${added}` : `${entry.slice(0, -1)},${added}`;
      }
      try {
        const fence = this.#lease.holding ? { holder: this.#lease.holder } : {};
        this.#version = await this.store.append(this.id, entry, this.#version, {
          ...fence,
          ...(snapshot ? { snapshot } : {}),
        });
        this.#last = entry;
        this.#snapshotChars = snapshot ? entry.length : this.#snapshotChars;
        this.#sinceChars = snapshot ? 0 : this.#sinceChars + entry.length;
      } catch (error) {
        this.#failure = error; // the state is ahead of the log now: the next operation reads the log again
        if (LoushoError.isInstance(error) && error.code === 'LOUSHO_SESSION_CONFLICT') this.#lease.lose(error);
        throw error;
      }
    };
    const done = this.#queue.then(run, run);
    this.#queue = done.catch(() => {});
    return done;
  }

  /**
   * Applies a record this writer is saving; one that does not follow from the state (a tail
   * made from a transcript the log no longer holds) is refused before anything is written,
   * and the next operation reads the log again.
   */
  #apply(record: SessionRecord): void {
    try {
      this.state.apply(record);
    } catch (error) {
      if (!(error instanceof LogInconsistent)) throw error;
      this.#failure = new LoushoError(
        'LOUSHO_SESSION_CONFLICT',
        `Session '${this.id}' in ${this.store.description}: ${error.message}. Nothing was written; read the ` +
          'session again and make the change from what it holds now.',
        { cause: error, details: { id: this.id, store: this.store.description } },
      );
      throw this.#failure;
    }
  }

  /** A new checkpoint's record; its token count is left to checkpoints(), so a save never waits for the tokenizer. */
  #checkpointOf(step: number) {
    const state = this.state;
    return {
      id: `cp-${state.checkpointCount + 1}`,
      turn: state.pending?.turn ?? state.turns,
      step,
      time: Date.now(),
      messageCount: state.messages.length,
    };
  }

  /** Forgets everything (after the store deleted the session). */
  reset(): void {
    forgetLog(this.store, this.id);
    this.state = new SessionState();
    this.#version = 0;
    this.#last = undefined;
    this.#snapshotChars = 0;
    this.#sinceChars = 0;
  }
}
