import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { checkOptions } from '../errors/check-options.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { type AppendLockFiles, withAppendLock } from './file-append-lock.js';
import { acquireFileLease, type LeaseFiles, readLock, releaseFileLease, renewFileLease } from './file-lease.js';
import { fileNameOf, idOfFileName } from './file-names.js';
import { type MarkFiles, readFromMark, readLinesFrom, removeMark, writeMark } from './file-snapshot-mark.js';
import { cleanTemporary, makePrivateDir, PRIVATE_FILE_MODE, withTemporary } from './private-files.js';
import type {
  AppendOptions,
  LeaseState,
  SessionLogRead,
  SessionLogTail,
  SessionStore,
  StoredSession,
} from './store.js';
import { checkId, conflict, guarded, leaseLost } from './store-errors.js';

/** The appends in flight per log file: one at a time in this process (leases keep processes apart). */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(path: string, run: () => Promise<T>): Promise<T> {
  const before = queues.get(path) ?? Promise.resolve();
  const next = before.then(run, run);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return next;
}

/** The complete lines of a log and where they end; a torn last line (no '\n' yet) is left out. */
function completeLines(text: string): { entries: string[]; bytes: number } {
  const end = text.lastIndexOf('\n');
  if (end < 0) return { entries: [], bytes: 0 };
  const body = text.slice(0, end);
  return { entries: body.split('\n'), bytes: Buffer.byteLength(text.slice(0, end + 1)) };
}

/**
 * Keeps each session as a log file in a folder: `<id>.jsonl`, one line per save, appended
 * (never rewritten), so a step costs what it added. A process killed while appending leaves
 * at most a torn last line, which is ignored and cut by the next append. The lease is a lock
 * file (`<id>.lock`, created atomically, with its holder and expiry); temporary files live in
 * `.tmp/` and are removed when the store next opens the session. Folders are created 0700 and
 * files 0600, whatever the umask. The version of a session is the byte length of its log; the
 * newest snapshot entry's offset is kept in `<id>.snap`, so opening a session reads from there.
 *
 * One host only: every process judges a lease's expiry by its own clock, and the atomic steps
 * (a hard link that fails when the file exists, an append under a lock file) are not promised on
 * a network file system. Workers on several machines share a KVSessionStore or a PostgresSessionStore.
 *
 * @example
 * const session = agent.session({ id: 'ticket-42', store: new FileSessionStore({ dir: './sessions' }) });
 */
export class FileSessionStore implements SessionStore {
  /** The folder the sessions' files are kept in, as given. */
  readonly dir: string;
  readonly description: string;
  readonly #fsync: boolean;
  #dirsMade = false;

  /** `fsync: true` flushes every append to the disk (survives a power loss, not only a crash; slower). */
  constructor(options: { dir: string; fsync?: boolean }) {
    checkOptions<Record<string, unknown>>(options, 'new FileSessionStore()', ['dir', 'fsync']);
    if (typeof options?.dir !== 'string' || options.dir === '') {
      throw configError('FileSessionStore needs a folder: new FileSessionStore({ dir: "./sessions" }).');
    }
    this.dir = options.dir;
    this.description = `FileSessionStore(${options.dir})`;
    this.#fsync = options.fsync === true;
  }

  /** The file-name form of an id (see fileNameOf). */
  #name(id: string): string {
    checkId(this, id);
    return fileNameOf(id);
  }

  #files(id: string): LeaseFiles & MarkFiles & { appendLock: AppendLockFiles } {
    const name = this.#name(id);
    const temporaryDir = join(this.dir, '.tmp');
    const withTemporaryFile = <T>(text: string, use: (path: string) => Promise<T>) =>
      withTemporary(temporaryDir, name, text, use);
    return {
      log: join(this.dir, `${name}.jsonl`),
      mark: join(this.dir, `${name}.snap`),
      appendLock: {
        path: join(this.dir, `${name}.append`),
        temporaryDir,
        prefix: name,
        withTemporary: withTemporaryFile,
      },
      lock: join(this.dir, `${name}.lock`),
      temporaryDir,
      prefix: name,
      ensureDirs: () => this.#ensureDirs(),
      withTemporary: withTemporaryFile,
    };
  }

  async #ensureDirs(): Promise<void> {
    if (this.#dirsMade) return;
    await makePrivateDir(join(this.dir, '.tmp'));
    this.#dirsMade = true;
  }

  async read(id: string): Promise<SessionLogRead> {
    const files = this.#files(id);
    return guarded(this, id, 'read', async () => {
      await cleanTemporary(files.temporaryDir, files.prefix);
      let text: string;
      try {
        text = await readFile(files.log, 'utf8');
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return { entries: [], version: 0 };
        throw error;
      }
      const { entries, bytes } = completeLines(text);
      return { entries, version: bytes };
    });
  }

  /** The log from its newest snapshot entry on (see readFromMark); the whole log when there is none. */
  async readLatest(id: string): Promise<SessionLogTail> {
    const files = this.#files(id);
    const tail = await guarded(this, id, 'read', async () => {
      await cleanTemporary(files.temporaryDir, files.prefix);
      return readFromMark(files);
    });
    if (tail === undefined) return { ...(await this.read(id)), fromSnapshot: false };
    const { entries, bytes } = completeLines(tail.text);
    return { entries, version: tail.offset + bytes, fromSnapshot: true };
  }

  /**
   * The lines after byte `version`, when the line that ends there is `last` (see
   * SessionStore.readAfter); the temporary files were cleaned when the writer first read.
   */
  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    const files = this.#files(id);
    const start = version - Buffer.byteLength(last) - 1;
    const text = (await guarded(this, id, 'read', () => readLinesFrom(files.log, start)))?.toString('utf8');
    if (text === undefined || !text.startsWith(`${last}\n`)) return undefined;
    const { entries, bytes } = completeLines(text.slice(last.length + 1));
    return { entries, version: version + bytes };
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    const files = this.#files(id);
    const write = () =>
      withAppendLock(files.appendLock, async () => {
        const holder = options?.holder;
        if (holder !== undefined && (await readLock(files.lock))?.holder !== holder) throw leaseLost(this, id, holder);
        const version = await this.#append(id, files.log, entry, expectedVersion);
        if (options?.snapshot === true) await writeMark(files, expectedVersion);
        return version;
      });
    return serialized(files.log, () =>
      guarded(this, id, 'write', async () => {
        await this.#ensureDirs();
        try {
          return await write();
        } catch (error) {
          if ((error as { code?: string }).code !== 'ENOENT' || LoushoError.isInstance(error)) throw error;
          this.#dirsMade = false; // the folder was removed under us: make it again
          await this.#ensureDirs();
          return write();
        }
      }),
    );
  }

  /** Checks the size and appends; called holding the append lock, so no other process writes in between. */
  async #append(id: string, log: string, entry: string, expectedVersion: number): Promise<number> {
    const handle = await this.#openLog(id, log, expectedVersion);
    try {
      const { size } = await handle.stat();
      if (size !== expectedVersion) await this.#checkTornTail(id, handle, size, expectedVersion);
      if (size === 0) await handle.chmod(PRIVATE_FILE_MODE);
      const line = Buffer.from(`${entry}\n`);
      await handle.write(line);
      if (this.#fsync) await handle.datasync();
      return expectedVersion + line.byteLength;
    } finally {
      await handle.close();
    }
  }

  /** Opens the log for appending; creates it (and the folders) only for a session's first entry. */
  async #openLog(id: string, path: string, expectedVersion: number): Promise<FileHandle> {
    const flags = constants.O_RDWR | constants.O_APPEND;
    if (expectedVersion !== 0) {
      try {
        return await open(path, flags);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') throw conflict(this, id, expectedVersion, 'deleted');
        throw error;
      }
    }
    return open(path, flags | constants.O_CREAT, PRIVATE_FILE_MODE);
  }

  /** Accepts a size past the expected version only when the extra bytes are one torn line, and cuts them. */
  async #checkTornTail(id: string, handle: FileHandle, size: number, expected: number): Promise<void> {
    if (size > expected) {
      const tail = Buffer.alloc(size - expected);
      await handle.read(tail, 0, tail.length, expected);
      const before = Buffer.alloc(1);
      if (expected > 0) await handle.read(before, 0, 1, expected - 1);
      if (!tail.includes(10) && (expected === 0 || before[0] === 10)) {
        await handle.truncate(expected);
        return;
      }
    }
    throw conflict(this, id, expected, size);
  }

  async delete(id: string): Promise<void> {
    const files = this.#files(id);
    await guarded(this, id, 'delete', async () => {
      await removeMark(files);
      try {
        await unlink(files.log);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT') return;
        if ((code === 'EISDIR' || code === 'EPERM') && (await lstat(files.log)).isDirectory()) {
          throw Object.assign(new Error(`${files.log} is a directory`), { code: 'EISDIR' });
        }
        throw error;
      }
    });
  }

  async list(): Promise<StoredSession[]> {
    return guarded(this, '*', 'list', async () => {
      let names: string[];
      try {
        names = await readdir(this.dir);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return [];
        throw error;
      }
      const sessions: StoredSession[] = [];
      for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
        const id = idOfFileName(name.slice(0, -'.jsonl'.length));
        if (id === undefined) continue; // not a file this store made
        const lock = await readLock(join(this.dir, `${name.slice(0, -'.jsonl'.length)}.lock`)).catch(() => undefined);
        sessions.push({ id, holder: lock?.holder, expiresAt: lock?.expiresAt });
      }
      return sessions;
    });
  }

  async acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState> {
    const files = this.#files(id);
    return guarded(this, id, 'lease', () => acquireFileLease(files, holder, ttlMs, takeOver));
  }

  async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
    const files = this.#files(id);
    return guarded(this, id, 'lease', () => renewFileLease(files, holder, ttlMs));
  }

  async release(id: string, holder: string): Promise<void> {
    const files = this.#files(id);
    return guarded(this, id, 'lease', () => releaseFileLease(files, holder));
  }
}
