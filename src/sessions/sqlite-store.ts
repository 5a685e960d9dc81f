import { createRequire } from 'node:module';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { parseSession, serializeSession } from './serialize.js';
import { invalidStore, type SessionStore } from './store.js';

interface Statement {
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

/** The part of a better-sqlite3 Database this store uses. */
export interface SqliteDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
}

const require = createRequire(import.meta.url);

function openDatabase(path: string): SqliteDatabase {
  let Database: new (path: string) => SqliteDatabase;
  try {
    Database = require('better-sqlite3') as new (path: string) => SqliteDatabase;
  } catch (cause) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      'SqliteSessionStore needs the better-sqlite3 package: npm install better-sqlite3@12 (13 needs Node 22).',
      { cause },
    );
  }
  return new Database(path);
}

/**
 * Keeps transcripts in one SQLite table (`lousho_sessions`), through better-sqlite3
 * (loaded when the store is created). Pass a file path, or an open Database to share it.
 * A row that is not a transcript this library wrote is reported with LOUSHO_STORE_INVALID.
 */
export class SqliteSessionStore implements SessionStore {
  readonly #db: SqliteDatabase;
  readonly #load: Statement;
  readonly #save: Statement;
  readonly #delete: Statement;

  constructor(options: { path: string } | { database: SqliteDatabase }) {
    if ('database' in options && options.database !== undefined) this.#db = options.database;
    else if ('path' in options && typeof options.path === 'string' && options.path !== '')
      this.#db = openDatabase(options.path);
    else
      throw configError(
        'SqliteSessionStore needs { path } (a file, or ":memory:") or { database } (a better-sqlite3 Database).',
      );
    this.#db.exec(
      'CREATE TABLE IF NOT EXISTS lousho_sessions (id TEXT PRIMARY KEY, transcript TEXT NOT NULL, updated_at INTEGER NOT NULL)',
    );
    this.#load = this.#db.prepare('SELECT transcript FROM lousho_sessions WHERE id = ?');
    this.#save = this.#db.prepare(
      'INSERT INTO lousho_sessions (id, transcript, updated_at) VALUES (?, ?, ?) ' +
        'ON CONFLICT(id) DO UPDATE SET transcript = excluded.transcript, updated_at = excluded.updated_at',
    );
    this.#delete = this.#db.prepare('DELETE FROM lousho_sessions WHERE id = ?');
  }

  async load(id: string): Promise<Message[] | undefined> {
    const row = this.#load.get(id) as { transcript?: unknown } | undefined;
    if (row === undefined) return undefined;
    try {
      return parseSession(String(row.transcript));
    } catch (cause) {
      throw invalidStore(`The lousho_sessions row '${id}'`, id, cause);
    }
  }

  async save(id: string, messages: readonly Message[]): Promise<void> {
    this.#save.run(id, serializeSession(messages), Date.now());
  }

  async delete(id: string): Promise<void> {
    this.#delete.run(id);
  }
}
