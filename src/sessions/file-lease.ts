import { link, readFile, rename, unlink } from 'node:fs/promises';
import { leaseDecision } from './lease.js';
import type { LeaseState } from './store.js';
import { NotWrittenHere } from './store-errors.js';

/** Where a FileSessionStore keeps one session's lease, and the folder of its temporary files. */
export interface LeaseFiles {
  /** The lock file: `{ holder, expiresAt }` while someone holds the lease. */
  lock: string;
  /** The folder of temporary files (the lock is written there, then linked into place). */
  temporaryDir: string;
  /** The prefix of the session's temporary files. */
  prefix: string;
  /** Creates the store's folders. */
  ensureDirs(): Promise<void>;
  /** Writes a private temporary file with `text` and hands its path to `use`. */
  withTemporary<T>(text: string, use: (path: string) => Promise<T>): Promise<T>;
}

interface Lock {
  holder: string;
  expiresAt: number;
}

/** The lock at `path` (undefined when there is none); NotWrittenHere when it is not one of ours. */
export async function readLock(path: string): Promise<Lock | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  let data: Partial<Lock> | undefined;
  try {
    data = JSON.parse(text) as Partial<Lock>;
  } catch {}
  if (typeof data?.holder !== 'string' || typeof data.expiresAt !== 'number') {
    throw new NotWrittenHere(`the lock file ${path} is not one this library wrote`);
  }
  return data as Lock;
}

/**
 * Takes the lease: a new lock is created atomically (written to a temporary file, then
 * hard-linked into place, which fails when a lock exists); a lock that expired, or that is
 * already the caller's or `takeOver`'s, is replaced atomically by a rename.
 */
export async function acquireFileLease(
  files: LeaseFiles,
  holder: string,
  ttlMs: number,
  takeOver: string | undefined,
): Promise<LeaseState> {
  await files.ensureDirs();
  for (let attempt = 0; attempt < 5; attempt++) {
    const mine = { holder, expiresAt: Date.now() + ttlMs };
    const created = await files.withTemporary(JSON.stringify(mine), async (path) => {
      try {
        await link(path, files.lock);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'EEXIST') return false;
        throw error;
      }
    });
    if (created) return { acquired: true, ...mine };
    const current = await readLock(files.lock);
    if (current === undefined) continue; // released in between: try to create it again
    const state = leaseDecision(current, holder, ttlMs, takeOver, Date.now());
    if (!state.acquired) return state;
    await files.withTemporary(JSON.stringify(mine), (path) => rename(path, files.lock));
    const now = await readLock(files.lock);
    if (now?.holder === holder) return { acquired: true, ...now };
    if (now !== undefined) return { acquired: false, ...now };
  }
  const current = await readLock(files.lock);
  return current === undefined
    ? { acquired: false, holder: 'unknown', expiresAt: Date.now() }
    : { acquired: false, ...current };
}

/** Extends the caller's lease (or takes it again when it lapsed and nobody took it). */
export async function renewFileLease(files: LeaseFiles, holder: string, ttlMs: number): Promise<boolean> {
  const current = await readLock(files.lock);
  if (!leaseDecision(current, holder, ttlMs, undefined, Date.now()).acquired) return false;
  await files.ensureDirs();
  const mine = { holder, expiresAt: Date.now() + ttlMs };
  await files.withTemporary(JSON.stringify(mine), (path) => rename(path, files.lock));
  return true;
}

/** Removes the lock when the caller holds it. */
export async function releaseFileLease(files: LeaseFiles, holder: string): Promise<void> {
  const current = await readLock(files.lock);
  if (current?.holder !== holder) return;
  try {
    await unlink(files.lock);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
}
