import { link, readFile, rename, unlink } from 'node:fs/promises';
import { LoushoError } from '../errors/lousho-error.js';
import { temporaryPath } from './private-files.js';
import { type ProcessIdentity, provablyDead, thisProcess } from './process-identity.js';

/** How long an append waits for another process's append to the same session before it gives up. */
const WAIT_MS = 10_000;

/** Where one session's append lock lives, and how to write a private temporary file. */
export interface AppendLockFiles {
  /** The lock file (`<id>.append`): there while a process checks the log's size and writes. */
  path: string;
  /** The folder of temporary files; a broken lock is moved there before it is removed. */
  temporaryDir: string;
  /** The session's temporary-file prefix. */
  prefix: string;
  /** Writes a private temporary file with `text` and hands its path to `use`. */
  withTemporary<T>(text: string, use: (path: string) => Promise<T>): Promise<T>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function owner(path: string): Promise<ProcessIdentity | undefined> {
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as Partial<ProcessIdentity>;
    return typeof data?.pid === 'number' ? (data as ProcessIdentity) : undefined;
  } catch {
    return undefined; // gone in between, or not ours: judged again on the next try
  }
}

/** Removes a lock whose owner is provably dead: moved aside first, so two breakers cannot both remove a fresh one. */
async function breakLock(files: AppendLockFiles, seen: ProcessIdentity): Promise<void> {
  const aside = temporaryPath(files.temporaryDir, files.prefix);
  try {
    await rename(files.path, aside);
  } catch {
    return; // someone else broke it, or its owner released it
  }
  const moved = await owner(aside);
  if (moved !== undefined && moved.pid !== seen.pid) {
    // A live append's lock was moved by mistake: put it back unless another lock took its place.
    await link(aside, files.path).catch(() => {});
  }
  await unlink(aside).catch(() => {});
}

/**
 * Runs `write` holding the session's append lock, so that reading the log's size and appending
 * are one step across processes. The lock is a file created atomically (written under
 * `.tmp/`, then hard-linked into place, which fails while one exists) holding its owner's
 * identity; a lock whose owner is provably dead (same host, boot and PID namespace, pid gone)
 * is broken; any other lock is waited for (up to 10 s, then LOUSHO_STORE_FAILED, writing nothing).
 */
export async function withAppendLock<T>(files: AppendLockFiles, write: () => Promise<T>): Promise<T> {
  const me = JSON.stringify(thisProcess());
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const taken = await files.withTemporary(me, async (path) => {
      try {
        await link(path, files.path);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'EEXIST') return false;
        throw error;
      }
    });
    if (taken) break;
    const holder = await owner(files.path);
    if (holder !== undefined && provablyDead(holder)) {
      await breakLock(files, holder);
      continue;
    }
    if (Date.now() - started > WAIT_MS) {
      throw new LoushoError(
        'LOUSHO_STORE_FAILED',
        `The append lock ${files.path} has been held for over ${WAIT_MS / 1000} s by ${JSON.stringify(holder)}; ` +
          'nothing was written. When that process is gone (on another host or container, where its death cannot ' +
          'be proven from here), remove the lock file.',
        { details: { lock: files.path } },
      );
    }
    await pause(Math.min(50, 1 + attempt));
  }
  try {
    return await write();
  } finally {
    await unlink(files.path).catch(() => {});
  }
}
