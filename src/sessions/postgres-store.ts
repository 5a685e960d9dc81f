import { createRequire } from 'node:module';
import { checkOptions } from '../errors/check-options.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import {
  ACQUIRE,
  APPEND,
  LEASES,
  LOG,
  READ_AFTER,
  READ_LATEST,
  READ_LEASE,
  SCHEMA,
  SNAPSHOTS,
} from './postgres-sql.js';
import { LEASE_TABLE_COLUMNS, LOG_TABLE_COLUMNS, SNAPSHOT_TABLE_COLUMNS } from './sql-schema.js';
import type {
  AppendOptions,
  LeaseState,
  RecordedLease,
  SessionLogRead,
  SessionLogTail,
  SessionStore,
  StoredSession,
} from './store.js';
import { checkId, conflict, guarded, leaseLost, NotWrittenHere } from './store-errors.js';

/** The part of a `pg` Pool (or Client) this store uses. */
export interface PostgresPool {
  /** Runs one SQL statement with `$1`-style parameters. */
  query(
    text: string,
    params?: unknown[],
  ): Promise<{
    /** The rows returned, by column name. */
    rows: Record<string, unknown>[];
    /** How many rows the statement inserted, updated or returned; null when the driver does not say. */
    rowCount: number | null;
  }>;
  /** Closes the pool; close() calls it only for a pool the store made itself. */
  end?(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** How long the store's own pool waits for a connection or a query's answer before the operation fails (30 s). */
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

function createPool(connectionString: string, timeoutMs: number): PostgresPool {
  let pg: { Pool: new (options: Record<string, unknown>) => PostgresPool };
  try {
    pg = require('pg') as typeof pg;
  } catch (cause) {
    throw new LoushoError('LOUSHO_DEPENDENCY_MISSING', 'PostgresSessionStore needs the pg package: npm install pg.', {
      cause,
    });
  }
  // A connection that stops answering (a network partition, a half-open socket) would hold an
  // operation, and the lease it renews, forever: every wait is bounded, and TCP keepalive finds it.
  const pool = new pg.Pool({
    connectionString,
    max: 4,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
  }) as PostgresPool & {
    on(event: 'error', listener: (error: Error) => void): void;
  };
  // An idle connection that drops (a server restart, a proxy's timeout) is an 'error' event of the
  // pool, which would end the process unheard; the pool has already discarded that connection, and
  // the next query opens a new one (or fails with LOUSHO_STORE_FAILED while the server is away).
  pool.on('error', () => {});
  return pool;
}

/**
 * Keeps sessions in PostgreSQL through `pg` (an optional peer dependency, loaded when the
 * store is created): `lousho_session_log` has one row per save, keyed by session id and
 * sequence number, inserted only while the sequence is still the one the writer read; the
 * lease of each session is a row of `lousho_session_leases`, taken and renewed by one atomic
 * upsert judged by the server's clock (so workers on any number of hosts can share it);
 * `lousho_session_snapshots` marks each session's newest snapshot entry, which opening a session reads from. The tables are created on first use; tables of the same
 * name with other columns are reported with LOUSHO_STORE_INVALID and left alone.
 *
 * @example
 * const store = new PostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * const session = agent.session({ id: 'ticket-42', store });
 */
export class PostgresSessionStore implements SessionStore {
  readonly description: string;
  readonly #pool: PostgresPool;
  readonly #ownsPool: boolean;
  #ready: Promise<void> | undefined;

  /**
   * Pass a connection string (the store makes its own pool, which survives dropped connections;
   * close() ends it; an operation that waits longer than `queryTimeoutMs`, 30 s, for a connection
   * or an answer fails with LOUSHO_STORE_FAILED), or a pg Pool to share (give it an 'error'
   * listener: pg ends the process on an idle connection's error when nobody listens).
   */
  constructor(options: { connectionString: string; queryTimeoutMs?: number } | { pool: PostgresPool }) {
    checkOptions<Record<string, unknown>>(options, 'new PostgresSessionStore()', [
      'connectionString',
      'queryTimeoutMs',
      'pool',
    ]);
    if ('pool' in options && typeof options.pool?.query === 'function') {
      this.#pool = options.pool;
      this.#ownsPool = false;
      this.description = 'PostgresSessionStore(a shared pool)';
    } else if (
      'connectionString' in options &&
      typeof options.connectionString === 'string' &&
      options.connectionString
    ) {
      const timeout = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
      if (!Number.isFinite(timeout) || timeout <= 0) {
        throw configError('PostgresSessionStore queryTimeoutMs must be a positive number of ms (30,000 by default).', {
          option: 'queryTimeoutMs',
        });
      }
      this.#pool = createPool(options.connectionString, timeout);
      this.#ownsPool = true;
      this.description = `PostgresSessionStore(${options.connectionString.replace(/\/\/[^@/]*@/, '//')})`;
    } else {
      throw configError(
        'PostgresSessionStore needs { connectionString: "postgres://user@host:5432/db" } or { pool } (a pg Pool).',
      );
    }
  }

  /** Ends the pool the store made (a shared pool is left to its owner). */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end?.();
  }

  #prepare(): Promise<void> {
    this.#ready ??= (async () => {
      await this.#pool.query(SCHEMA);
      const { rows } = await this.#pool.query(
        'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ' +
          'AND table_name = ANY($1) ORDER BY table_name, ordinal_position',
        [[LOG, LEASES, SNAPSHOTS]],
      );
      for (const [table, columns] of [
        [LOG, LOG_TABLE_COLUMNS],
        [LEASES, LEASE_TABLE_COLUMNS],
        [SNAPSHOTS, SNAPSHOT_TABLE_COLUMNS],
      ] as const) {
        const found = rows.filter((r) => r.table_name === table).map((r) => String(r.column_name));
        if (found.join(',') !== columns.join(',')) {
          throw new NotWrittenHere(
            `the table ${table} has the columns (${found.join(', ')}), not (${columns.join(', ')})`,
          );
        }
      }
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  #query(id: string, action: string, text: string, params: unknown[]) {
    checkId(this, id);
    return guarded(this, id, action, async () => {
      await this.#prepare();
      return this.#pool.query(text, params);
    });
  }

  async read(id: string): Promise<SessionLogRead> {
    const { rows } = await this.#query(id, 'read', `SELECT seq, entry FROM ${LOG} WHERE session_id = $1 ORDER BY seq`, [
      id,
    ]);
    return { entries: rows.map((r) => String(r.entry)), version: rows.length === 0 ? 0 : Number(rows.at(-1)?.seq) };
  }

  async readLatest(id: string): Promise<SessionLogTail> {
    const { rows } = await this.#query(id, 'read', READ_LATEST, [id]);
    const first = rows.length === 0 ? 1 : Number(rows[0]?.seq);
    rows.forEach((row, i) => {
      if (Number(row.seq) !== first + i) throw new NotWrittenHere(`the rows of ${LOG} skip sequence ${first + i}`);
    });
    return {
      entries: rows.map((r) => String(r.entry)),
      version: rows.length === 0 ? 0 : first + rows.length - 1,
      fromSnapshot: first > 1,
    };
  }

  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    if (version < 1) return undefined;
    const { rows } = await this.#query(id, 'read', READ_AFTER, [id, version]);
    if (rows.length === 0 || Number(rows[0]?.seq) !== version || String(rows[0]?.entry) !== last) return undefined;
    rows.forEach((row, i) => {
      if (Number(row.seq) !== version + i) throw new NotWrittenHere(`the rows of ${LOG} skip sequence ${version + i}`);
    });
    return { entries: rows.slice(1).map((r) => String(r.entry)), version: version + rows.length - 1 };
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    let inserted = 0;
    try {
      const holder = options?.holder ?? null;
      const result = await this.#query(id, 'write', APPEND, [
        id,
        expectedVersion,
        entry,
        options?.snapshot === true,
        holder,
      ]);
      inserted = result.rows.length;
    } catch (error) {
      // Two writers that read the same version: the primary key lets one in.
      if ((error as { cause?: { code?: unknown } }).cause?.code !== '23505') throw error;
    }
    if (inserted !== 1) {
      const { rows } = await this.#query(
        id,
        'read',
        `SELECT COALESCE(MAX(seq), 0) AS v FROM ${LOG} WHERE session_id = $1`,
        [id],
      );
      const version = Number(rows[0]?.v);
      if (version === expectedVersion && options?.holder !== undefined) throw leaseLost(this, id, options.holder);
      throw conflict(this, id, expectedVersion, version);
    }
    return expectedVersion + 1;
  }

  async delete(id: string): Promise<void> {
    await this.#query(
      id,
      'delete',
      `WITH unmarked AS (DELETE FROM ${SNAPSHOTS} WHERE session_id = $1) DELETE FROM ${LOG} WHERE session_id = $1`,
      [id],
    );
  }

  async list(): Promise<StoredSession[]> {
    return guarded(this, '*', 'list', async () => {
      await this.#prepare();
      const { rows } = await this.#pool.query(
        `SELECT ids.session_id AS id, s.holder, s.expires_at FROM (SELECT DISTINCT session_id FROM ${LOG}) ids ` +
          `LEFT JOIN ${LEASES} s ON s.session_id = ids.session_id`,
      );
      return rows.map((r) => ({
        id: String(r.id),
        holder: r.holder === null ? undefined : String(r.holder),
        expiresAt: r.expires_at === null ? undefined : Number(r.expires_at),
      }));
    });
  }

  async acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const taken = await this.#query(id, 'lease', ACQUIRE, [id, holder, ttl, takeOver ?? null]);
    const row = taken.rows[0];
    if (row !== undefined) return { acquired: true, holder, expiresAt: Number(row.expires_at) };
    const { rows } = await this.#query(id, 'lease', `SELECT holder, expires_at FROM ${LEASES} WHERE session_id = $1`, [
      id,
    ]);
    return {
      acquired: false,
      holder: String(rows[0]?.holder ?? 'unknown'),
      expiresAt: Number(rows[0]?.expires_at ?? 0),
    };
  }

  async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.acquire(id, holder, ttlMs)).acquired;
  }

  async release(id: string, holder: string): Promise<void> {
    await this.#query(id, 'lease', `DELETE FROM ${LEASES} WHERE session_id = $1 AND holder = $2`, [id, holder]);
  }

  async readLease(id: string): Promise<RecordedLease | undefined> {
    const row = (await this.#query(id, 'lease', READ_LEASE, [id])).rows[0];
    return row === undefined ? undefined : { holder: String(row.holder), remainingMs: Number(row.remaining) };
  }
}
