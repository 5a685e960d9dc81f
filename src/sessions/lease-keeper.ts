import { LoushoError } from '../errors/lousho-error.js';
import { holderIsDead, newHolderId, sessionBusy } from './lease.js';
import type { SessionStore } from './store.js';

/** What a LeaseKeeper needs of the log it guards. */
export interface GuardedLog {
  /** True when the store's log is still the one this writer last read or wrote (nobody else wrote). */
  unchanged(): Promise<boolean>;
  /** Runs `task` after the saves already queued, before the next ones. */
  enqueue(task: () => Promise<void>): void;
}

/**
 * One writer's lease on a session: taken before a turn, renewed every third of its length
 * while the turn runs, and given back after. The writer counts the lease as held until `ttlMs`
 * after the last acquire or renew was sent, by this process's monotonic clock (which runs on
 * while the process is paused, so a paused writer counts its lease as run out); the store
 * judges it by its own clock, which started later. A writer whose lease ran out before it
 * renewed it (a pause, a blocked event loop, a store that did not answer) may have been taken
 * over in between, so it holds the lease again only when the log is still the one it knows; a
 * writer that lost the lease, or whose save found the log moved, is lost: its signal fires (the
 * turn's tools get it as their abort signal) and it saves nothing more.
 */
export class LeaseKeeper {
  readonly holder = newHolderId();
  readonly #store: SessionStore;
  readonly #id: string;
  readonly #log: GuardedLog;
  #lost = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ttlMs = 0;
  /** Until when (performance.now()) the lease is surely this writer's. */
  #heldUntil = 0;
  #controller = new AbortController();
  /** The timer's renewal in flight, which release() waits for (else it could take the lease again after it was given back). */
  #renewing: Promise<unknown> = Promise.resolve();

  constructor(store: SessionStore, id: string, log: GuardedLog) {
    this.#store = store;
    this.#id = id;
    this.#log = log;
  }

  /** Takes the lease (over a provably dead holder too) and keeps renewing it; throws LOUSHO_SESSION_BUSY. */
  async acquire(what: string, ttlMs: number): Promise<void> {
    const sent = performance.now();
    let lease = await this.#store.acquire(this.#id, this.holder, ttlMs);
    if (!lease.acquired && holderIsDead(lease.holder)) {
      lease = await this.#store.acquire(this.#id, this.holder, ttlMs, lease.holder);
    }
    if (!lease.acquired) throw sessionBusy(this.#id, what, lease, ttlMs);
    this.#lost = false;
    this.#ttlMs = ttlMs;
    this.#heldUntil = sent + ttlMs;
    this.#controller = new AbortController();
    this.#timer = setInterval(
      () => {
        // A blip is retried by the next renewal, and every save checks the lease first.
        this.#renewing = this.#renew()
          .then((state) => {
            if (state === 'lapsed') this.#log.enqueue(() => this.#confirm());
          })
          .catch(() => {});
      },
      Math.max(10, Math.floor(ttlMs / 3)),
    );
    this.#timer.unref?.();
  }

  /** Fires when this writer is lost; the turn's tools get it as their abort signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True while this writer holds the lease (between acquire() and release()): its saves are fenced with it. */
  get holding(): boolean {
    return this.#timer !== undefined;
  }

  /** True once this writer lost the session (its lease, or a save that found the log moved). */
  get lost(): boolean {
    return this.#lost;
  }

  /** 'held': renewed in time; 'lapsed': held again after it ran out; 'lost': someone else holds it. */
  async #renew(): Promise<'held' | 'lapsed' | 'lost'> {
    const sent = performance.now();
    const lapsed = sent >= this.#heldUntil;
    if (!(await this.#store.renew(this.#id, this.holder, this.#ttlMs))) {
      this.lose();
      return 'lost';
    }
    this.#heldUntil = Math.max(this.#heldUntil, sent + this.#ttlMs);
    return lapsed ? 'lapsed' : 'held';
  }

  /** After a lapse: keeps the lease only when nobody wrote in between (a failed check counts as someone did). */
  async #confirm(): Promise<void> {
    if (this.#lost) return;
    const unchanged = await this.#log.unchanged().catch(() => false);
    if (!unchanged) this.lose();
  }

  /** Before a save (in the save queue): a lease that ran out is renewed and confirmed first, or the writer is lost. */
  async check(): Promise<void> {
    if (this.#timer === undefined || this.#lost || performance.now() < this.#heldUntil) return;
    if ((await this.#renew()) === 'lapsed') await this.#confirm();
  }

  /** Marks the writer lost and fires its signal, with `reason` (a conflict) or the lost-lease error. */
  lose(reason?: unknown): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#controller.abort(
      reason ??
        new LoushoError(
          'LOUSHO_SESSION_CONFLICT',
          `Session '${this.#id}' lost its lease in ${this.#store.description} (its lease ran out and another process ` +
            'took the session over); nothing more was saved. Open the session again to see its current state.',
          { details: { id: this.#id, store: this.#store.description } },
        ),
    );
  }

  /** Stops renewing and gives the lease back, once a renewal in flight is done (a failure here only lets it run out). */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#renewing;
    await this.#store.release(this.#id, this.holder).catch(() => {});
  }
}
