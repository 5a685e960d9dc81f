/** Opening a SqliteSessionStore's database: its driver, loaded when the store is made, and WAL mode. */
import { createRequire } from 'node:module';
import { LoushoError } from '../errors/lousho-error.js';
import type { SqliteDatabase } from './sqlite-store.js';

export type DatabaseClass = new (path: string) => SqliteDatabase;

const require = createRequire(import.meta.url);

/** The better-sqlite3 Database class; LOUSHO_DEPENDENCY_MISSING naming its install line when it is absent. */
export function loadDriver(): DatabaseClass {
  try {
    return require('better-sqlite3') as DatabaseClass;
  } catch (cause) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      'SqliteSessionStore needs the better-sqlite3 package: npm install better-sqlite3@12 (13 needs Node 22).',
      { cause },
    );
  }
}

/**
 * Puts the database in WAL mode. Switching needs a moment alone with the file, and the busy
 * timeout does not cover it: a process that opens the file while another switches it is told
 * SQLITE_BUSY at once, so it waits a little and asks again (the mode sticks to the file, so
 * the second ask usually finds it done). Bounded: about two seconds.
 */
export async function switchToWal(db: SqliteDatabase): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
