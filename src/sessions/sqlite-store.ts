import { existsSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import { leaseDecision } from './lease.js';
import { checkLocalFolder } from './local-folder.js';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';
import { LEASE_TABLE_COLUMNS, LOG_TABLE_COLUMNS, SNAPSHOT_TABLE_COLUMNS } from './sql-schema.js';
import { loadDriver, switchToWal } from './sqlite-open.js';
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

interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

/** The part of a better-sqlite3 Database this store uses. */
export interface SqliteDatabase {
  /** Compiles one SQL statement to run with parameters. */
  prepare(sql: string): Statement;
  /** Runs SQL without parameters (the store sets its PRAGMAs with it). */
  exec(sql: string): unknown;
}

const LOG = 'lousho_session_log';
const LEASES = 'lousho_session_leases';
const SNAPSHOTS = 'lousho_session_snapshots';
const LIST = `SELECT ids.session_id AS id, s.holder AS holder, s.expires_at AS expiresAt FROM (SELECT DISTINCT session_id FROM ${LOG}) ids LEFT JOIN ${LEASES} s ON s.session_id = ids.session_id`;

/** The log rows from sequence number `first` on, checked to be what this store writes, and the version. */
function logRows(rows: unknown[], first: number): SessionLogRead {
  const log = rows as { seq: number; entry: unknown }[];
  log.forEach((row, i) => {
    if (row.seq !== first + i || typeof row.entry !== 'string') {
      throw new NotWrittenHere(`the rows of ${LOG} are not a log this library wrote (row ${row.seq})`);
    }
  });
  return { entries: log.map((r) => r.entry as string), version: log.length === 0 ? 0 : first + log.length - 1 };
}

/**
 * Keeps sessions in two SQLite tables through better-sqlite3: `lousho_session_log` (one row
 * per save, keyed by session id and sequence number, so a step inserts what it added) and
 * `lousho_session_leases` (the writer of each session). Pass a file path (opened, and its folder
 * and file created owner-only, on first use, in WAL mode) or an open Database to share one.
 * Tables of the same name with other columns are reported with LOUSHO_STORE_INVALID and left
 * alone; `lousho_session_snapshots` marks each session's newest snapshot entry.
 *
 * One host only: every process judges a lease's expiry by its own clock, and SQLite's locking is
 * not promised on a network file system. Workers on several machines share a KVSessionStore or a
 * PostgresSessionStore, whose leases expire by the server's clock.
 */
export class SqliteSessionStore implements SessionStore {
  readonly description: string;
  readonly #open: () => Promise<SqliteDatabase>;
  #statements: Promise<Record<string, Statement>> | undefined;
  #db: SqliteDatabase | undefined;

  constructor(options: { path: string } | { database: SqliteDatabase }) {
    checkOptions<Record<string, unknown>>(options, 'new SqliteSessionStore()', ['path', 'database']);
    if ('database' in options && options.database !== undefined) {
      const database = options.database;
      this.description = 'SqliteSessionStore(a shared database)';
      this.#open = async () => database;
    } else if ('path' in options && typeof options.path === 'string' && options.path !== '') {
      const path = options.path;
      const Database = loadDriver();
      this.description = `SqliteSessionStore(${path})`;
      this.#open = async () => {
        const memory = path === ':memory:' || path.startsWith('file:');
        const fresh = !memory && !existsSync(path);
        if (fresh) await makePrivateDir(dirname(path));
        if (!memory) await checkLocalFolder(dirname(path), this.description, 'new SqliteSessionStore({ path })');
        const db = new Database(path);
        if (fresh) await chmod(path, PRIVATE_FILE_MODE);
        db.exec('PRAGMA busy_timeout = 5000');
        if (!memory) await switchToWal(db);
        return db;
      };
    } else {
      throw configError(
        'SqliteSessionStore needs { path } (a file, or ":memory:") or { database } (a better-sqlite3 Database).',
      );
    }
  }

  /** Opens the database and its tables on first use (so a fault there names the session). */
  #ready(): Promise<Record<string, Statement>> {
    this.#statements ??= this.#prepare().catch((error: unknown) => {
      this.#statements = undefined;
      throw error;
    });
    return this.#statements;
  }

  async #prepare(): Promise<Record<string, Statement>> {
    const db = await this.#open();
    this.#db = db;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${LOG} (session_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (session_id, seq))`,
    );
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${LEASES} (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
    );
    db.exec(`CREATE TABLE IF NOT EXISTS ${SNAPSHOTS} (session_id TEXT PRIMARY KEY, seq INTEGER NOT NULL)`);
    for (const [table, columns] of [
      [LOG, LOG_TABLE_COLUMNS],
      [LEASES, LEASE_TABLE_COLUMNS],
      [SNAPSHOTS, SNAPSHOT_TABLE_COLUMNS],
    ] as const) {
      const found = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
      if (found.join(',') !== columns.join(',')) {
        throw new NotWrittenHere(
          `the table ${table} has the columns (${found.join(', ')}), not (${columns.join(', ')})`,
        );
      }
    }
    return {
      read: db.prepare(`SELECT seq, entry FROM ${LOG} WHERE session_id = ? ORDER BY seq`),
      tail: db.prepare(
        `SELECT seq, entry FROM ${LOG} WHERE session_id = ? AND seq >= COALESCE((SELECT seq FROM ${SNAPSHOTS} WHERE session_id = ?), 1) ORDER BY seq`,
      ),
      after: db.prepare(`SELECT seq, entry FROM ${LOG} WHERE session_id = ? AND seq >= ? ORDER BY seq`),
      mark: db.prepare(`INSERT OR REPLACE INTO ${SNAPSHOTS} (session_id, seq) VALUES (?, ?)`),
      unmark: db.prepare(`DELETE FROM ${SNAPSHOTS} WHERE session_id = ?`),
      append: db.prepare(
        `INSERT INTO ${LOG} (session_id, seq, entry) SELECT ?, ?, ? WHERE (SELECT COALESCE(MAX(seq), 0) FROM ${LOG} WHERE session_id = ?) = ?`,
      ),
      version: db.prepare(`SELECT COALESCE(MAX(seq), 0) AS v FROM ${LOG} WHERE session_id = ?`),
      delete: db.prepare(`DELETE FROM ${LOG} WHERE session_id = ?`),
      lease: db.prepare(`SELECT holder, expires_at AS expiresAt FROM ${LEASES} WHERE session_id = ?`),
      take: db.prepare(`INSERT OR REPLACE INTO ${LEASES} (session_id, holder, expires_at) VALUES (?, ?, ?)`),
      release: db.prepare(`DELETE FROM ${LEASES} WHERE session_id = ? AND holder = ?`),
      list: db.prepare(LIST),
    };
  }

  /** Runs `body` in a transaction that holds the write lock from its start. */
  #immediate<T>(body: () => T): T {
    const db = this.#db as SqliteDatabase;
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }

  async read(id: string): Promise<SessionLogRead> {
    checkId(this, id);
    return guarded(this, id, 'read', async () => logRows((await this.#ready()).read.all(id), 1));
  }

  /** The rows from the newest snapshot entry on, read by one statement (so as one). */
  async readLatest(id: string): Promise<SessionLogTail> {
    checkId(this, id);
    return guarded(this, id, 'read', async () => {
      const rows = (await this.#ready()).tail.all(id, id) as { seq: number }[];
      const first = rows[0]?.seq ?? 1;
      return { ...logRows(rows, first), fromSnapshot: first > 1 };
    });
  }

  /** The entry at `version` and the ones after it, read by one statement (so as one). */
  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    checkId(this, id);
    if (version < 1) return undefined;
    return guarded(this, id, 'read', async () => {
      const rows = (await this.#ready()).after.all(id, version) as { seq: number; entry: unknown }[];
      if (rows[0]?.seq !== version || rows[0].entry !== last) return undefined;
      const log = logRows(rows, version);
      return { entries: log.entries.slice(1), version: log.version };
    });
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    checkId(this, id);
    return guarded(this, id, 'write', async () => {
      const statements = await this.#ready();
      // The write lock first (waiting up to the busy timeout): a check that began as a read could
      // not become a write once another process wrote, and would fail with SQLITE_BUSY at once.
      const holder = options?.holder;
      const changes = this.#immediate(() => {
        if (holder !== undefined && (statements.lease.get(id) as { holder?: string } | undefined)?.holder !== holder)
          return -1;
        try {
          const changes = statements.append.run(id, expectedVersion + 1, entry, id, expectedVersion).changes;
          if (changes === 1 && options?.snapshot === true) statements.mark.run(id, expectedVersion + 1);
          return changes;
        } catch (error) {
          if (!String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT')) throw error;
          return 0;
        }
      });
      if (changes === -1) throw leaseLost(this, id, holder as string);
      if (changes !== 1) {
        throw conflict(this, id, expectedVersion, (statements.version.get(id) as { v: number }).v);
      }
      return expectedVersion + 1;
    });
  }

  async delete(id: string): Promise<void> {
    checkId(this, id);
    await guarded(this, id, 'delete', async () => {
      const statements = await this.#ready();
      this.#immediate(() => {
        statements.unmark.run(id);
        statements.delete.run(id);
      });
    });
  }

  async list(): Promise<StoredSession[]> {
    return guarded(this, '*', 'list', async () => {
      const rows = (await this.#ready()).list.all() as {
        id: string;
        holder: string | null;
        expiresAt: number | null;
      }[];
      return rows.map((r) => ({ id: r.id, holder: r.holder ?? undefined, expiresAt: r.expiresAt ?? undefined }));
    });
  }

  async acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState> {
    checkId(this, id);
    return guarded(this, id, 'lease', async () => {
      const statements = await this.#ready();
      return this.#immediate(() => {
        const current = statements.lease.get(id) as { holder: string; expiresAt: number } | undefined;
        const state = leaseDecision(current, holder, ttlMs, takeOver, Date.now());
        if (state.acquired) statements.take.run(id, holder, state.expiresAt);
        return state;
      });
    });
  }

  async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.acquire(id, holder, ttlMs)).acquired;
  }

  async release(id: string, holder: string): Promise<void> {
    checkId(this, id);
    await guarded(this, id, 'lease', async () => {
      (await this.#ready()).release.run(id, holder);
    });
  }

  async readLease(id: string): Promise<RecordedLease | undefined> {
    checkId(this, id);
    return guarded(this, id, 'lease', async () => {
      const lease = (await this.#ready()).lease.get(id) as { holder: string; expiresAt: number } | undefined;
      return lease === undefined ? undefined : { holder: lease.holder, remainingMs: lease.expiresAt - Date.now() };
    });
  }
}
