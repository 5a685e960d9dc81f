import { leaseDecision } from './lease.js';
import { checkId, conflict, leaseLost } from './store-errors.js';

/**
 * What a store holds of one session: its log entries in order and a version that changes
 * with every append (and only then).
 */
export interface SessionLogRead {
  /** The entries, oldest first, each exactly as it was appended. */
  entries: string[];
  /** An opaque number to pass back to append(); 0 for a session with nothing saved. */
  version: number;
}

/** What readLatest() found: the log from its newest snapshot entry on. */
export interface SessionLogTail extends SessionLogRead {
  /**
   * True when `entries` start at the newest entry appended with `{ snapshot: true }` (the ones
   * before it are left out); false when they are the whole log.
   */
  fromSnapshot: boolean;
}

/** What append() takes besides the entry. */
export interface AppendOptions {
  /**
   * The entry holds the session's whole state (a snapshot record): readLatest() may start
   * there and leave out every entry before it.
   */
  snapshot?: boolean;
  /**
   * Fences the append with the lease: it is made only while the session's lease is still this
   * holder's (nobody took it since, judged in the same atomic step as the version check), else it
   * is refused with LOUSHO_SESSION_CONFLICT, writing nothing. What a writer's saves carry, so one
   * that lost its lease saves nothing, and so starts no tool call, even before it learns it.
   */
  holder?: string;
}

/** What acquire() found: the lease is now `holder`'s, or someone else's until `expiresAt`. */
export interface LeaseState {
  /** True when the caller holds the lease now; false when another holder's lease has not run out. */
  acquired: boolean;
  /** The holder of the lease now (the caller's id when acquired). */
  holder: string;
  /** When the lease runs out unless renewed, in ms since the epoch (the store's clock). */
  expiresAt: number;
}

/** A session's lease as readLease() finds it. */
export interface RecordedLease {
  /** Who holds (or last held) it. */
  holder: string;
  /** How long it has left, in ms by the store's clock; 0 or less when it ran out. */
  remainingMs: number;
}

/** One session a store holds, as list() names it, with its lease when someone holds one. */
export interface StoredSession {
  /** The session's id. */
  id: string;
  /** The lease's holder, when a lease is recorded (it may have expired: see expiresAt). */
  holder: string | undefined;
  /** When that lease runs out, in ms since the epoch (the store's clock); undefined with no lease. */
  expiresAt: number | undefined;
}

/**
 * Where sessions are kept: an append-only log per session id, and a lease that makes one
 * process at a time the session's writer. The Session (sessions/session-state.ts) gives the
 * entries their meaning; a store only keeps strings. Every store passes the conformance suite
 * in store.test.ts; every fault it meets is a LoushoError with a LOUSHO_STORE_* code that names
 * the session and the store, and leaves everything else in the store as it was.
 *
 * Entries are single-line strings (no '\n'); an entry that was appended is kept whole or, when
 * the process died while appending it, not at all.
 */
export interface SessionStore {
  /** Names the store in error messages, e.g. `FileSessionStore(./sessions)`. */
  readonly description: string;
  /** Every entry of the session (none for an id never written) and its version. */
  read(id: string): Promise<SessionLogRead>;
  /**
   * Appends one entry when the session's version is still `expectedVersion` and resolves to
   * the new version; rejects with LOUSHO_SESSION_CONFLICT, writing nothing, when it moved.
   * With `{ snapshot: true }` the store remembers where this entry starts, for readLatest(); with
   * `{ holder }` it appends only while that holder still holds the lease (see AppendOptions.holder).
   */
  append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number>;
  /**
   * The entries from the newest snapshot entry on (the whole log when there is none), and the
   * session's version, read as one: what opening a session reads, so its cost follows the
   * session's state, not the length of its history. Every store of this library has it; a
   * store without it is read whole.
   */
  readLatest?(id: string): Promise<SessionLogTail>;
  /**
   * The entries appended after `version`, and the session's version, read as one, when the
   * entry that brought the log to `version` is still `last` (undefined when it is not: the
   * log was deleted or written again since, and the caller reads it from its newest
   * snapshot). What a writer that knows the log reads before each operation, so its cost is
   * what was appended since, not the log. Every store of this library has it; a store
   * without it is read from its newest snapshot.
   */
  readAfter?(id: string, version: number, last: string): Promise<SessionLogRead | undefined>;
  /** Deletes the session's entries and its snapshot mark (nothing when there are none); the lease is left alone. */
  delete(id: string): Promise<void>;
  /**
   * Takes the session's lease for `ttlMs` when it is free, expired, already `holder`'s, or
   * held by `takeOver` (a holder known to be dead). Resolves to what it found; never waits.
   */
  acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState>;
  /**
   * Extends `holder`'s lease by `ttlMs` from now (taking it again when it ran out and nobody
   * took it); false when someone else holds it now.
   */
  renew(id: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Releases the lease when `holder` holds it; does nothing otherwise. */
  release(id: string, holder: string): Promise<void>;
  /**
   * The lease recorded for the session, without taking it: its holder and the ms it has left by
   * the store's clock (0 or less: it ran out); undefined when none is recorded. What a queue's
   * worker reads to tell a job whose writer died (see writerOf()). Every store of this library has it.
   */
  readLease?(id: string): Promise<RecordedLease | undefined>;
  /**
   * Every session with saved entries, with its lease (in no set order): what a cleanup process
   * walks (listSessions() adds each one's status). Every store of this library has it.
   */
  list?(): Promise<StoredSession[]>;
}

/**
 * Keeps sessions in memory, for tests and short-lived processes (the default store). Its
 * leases are per store object, so it keeps one process's sessions apart; nothing survives the
 * process.
 */
export class MemorySessionStore implements SessionStore {
  readonly description = 'MemorySessionStore';
  readonly #logs = new Map<string, string[]>();
  /** Where each session's newest snapshot entry is. */
  readonly #snapshots = new Map<string, number>();
  readonly #leases = new Map<string, { holder: string; expiresAt: number }>();

  async read(id: string): Promise<SessionLogRead> {
    checkId(this, id);
    const entries = this.#logs.get(id) ?? [];
    return { entries: [...entries], version: entries.length };
  }

  async readLatest(id: string): Promise<SessionLogTail> {
    checkId(this, id);
    const entries = this.#logs.get(id) ?? [];
    const from = this.#snapshots.get(id) ?? 0;
    return { entries: entries.slice(from), version: entries.length, fromSnapshot: from > 0 };
  }

  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    checkId(this, id);
    const entries = this.#logs.get(id) ?? [];
    if (version < 1 || entries[version - 1] !== last) return undefined;
    return { entries: entries.slice(version), version: entries.length };
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    checkId(this, id);
    const entries = this.#logs.get(id) ?? [];
    if (entries.length !== expectedVersion) throw conflict(this, id, expectedVersion, entries.length);
    const holder = options?.holder;
    if (holder !== undefined && this.#leases.get(id)?.holder !== holder) throw leaseLost(this, id, holder);
    if (options?.snapshot === true) this.#snapshots.set(id, entries.length);
    entries.push(entry);
    this.#logs.set(id, entries);
    return entries.length;
  }

  async delete(id: string): Promise<void> {
    checkId(this, id);
    this.#logs.delete(id);
    this.#snapshots.delete(id);
  }

  async list(): Promise<StoredSession[]> {
    return [...this.#logs.keys()].sort().map((id) => {
      const lease = this.#leases.get(id);
      return { id, holder: lease?.holder, expiresAt: lease?.expiresAt };
    });
  }

  async acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState> {
    checkId(this, id);
    const state = leaseDecision(this.#leases.get(id), holder, ttlMs, takeOver, Date.now());
    if (state.acquired) this.#leases.set(id, { holder, expiresAt: state.expiresAt });
    return state;
  }

  async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
    checkId(this, id);
    return (await this.acquire(id, holder, ttlMs)).acquired;
  }

  async release(id: string, holder: string): Promise<void> {
    checkId(this, id);
    if (this.#leases.get(id)?.holder === holder) this.#leases.delete(id);
  }

  async readLease(id: string): Promise<RecordedLease | undefined> {
    checkId(this, id);
    const lease = this.#leases.get(id);
    return lease === undefined ? undefined : { holder: lease.holder, remainingMs: lease.expiresAt - Date.now() };
  }
}
