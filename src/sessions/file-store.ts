import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { checkOptions } from '../errors/check-options.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { acquireFileLease, type LeaseFiles, readLock, releaseFileLease, renewFileLease } from './file-lease.js';
import { appendLine } from './file-log-append.js';
import { countingLines, entriesOf, markedLine } from './file-log-lines.js';
import { fileNameOf, idOfFileName } from './file-names.js';
import { type MarkFiles, readFromMark, readRange, removeMark, writeMark } from './file-snapshot-mark.js';
import { checkLocalFolder } from './local-folder.js';
import { cleanTemporary, makePrivateDir, withTemporary } from './private-files.js';
import type {
  AppendOptions,
  LeaseState,
  RecordedLease,
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

/**
 * Keeps each session as a log file in a folder: `<id>.jsonl`, one line per save, appended
 * (never rewritten), so a step costs what it added. Each line names the version it follows, and
 * counts only where it does (file-log-lines.ts): that is the fence, so no append takes a lock, and
 * a writer killed anywhere (in this process's PID namespace or not) leaves nothing another must wait
 * for, at most a torn line that readers skip. The lease is a lock file (`<id>.lock`, created
 * atomically, with its holder and expiry); temporary files live in `.tmp/` and are removed when the
 * store next opens the session. Folders are created 0700 and files 0600, whatever the umask. The
 * version of a session is where its last counting line ends; the newest snapshot line's place is
 * kept in `<id>.snap`, so opening a session reads from there.
 *
 * One host only: every process judges a lease's expiry by its own clock, and a lease taken over
 * between a writer's check of it and its append is not seen by that append. Workers on several
 * machines share a KVSessionStore or a PostgresSessionStore.
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

  #files(id: string): LeaseFiles & MarkFiles {
    const name = this.#name(id);
    const temporaryDir = join(this.dir, '.tmp');
    const withTemporaryFile = <T>(text: string, use: (path: string) => Promise<T>) =>
      withTemporary(temporaryDir, name, text, use);
    return {
      log: join(this.dir, `${name}.jsonl`),
      mark: join(this.dir, `${name}.snap`),
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
    await checkLocalFolder(this.dir, this.description, 'new FileSessionStore({ dir })');
    this.#dirsMade = true;
  }

  async read(id: string): Promise<SessionLogRead> {
    const files = this.#files(id);
    return guarded(this, id, 'read', async () => {
      await cleanTemporary(files.temporaryDir, files.prefix);
      let bytes: Buffer;
      try {
        bytes = await readFile(files.log);
      } catch (error) {
        if ((error as { code?: string }).code === 'ENOENT') return { entries: [], version: 0 };
        throw error;
      }
      const { lines, version } = countingLines(bytes, 0, 0);
      return { entries: entriesOf(lines), version };
    });
  }

  /** The log from its newest snapshot line on (see readFromMark); the whole log when there is none. */
  async readLatest(id: string): Promise<SessionLogTail> {
    const files = this.#files(id);
    const tail = await guarded(this, id, 'read', async () => {
      await cleanTemporary(files.temporaryDir, files.prefix);
      return readFromMark(files);
    });
    if (tail === undefined) return { ...(await this.read(id)), fromSnapshot: false };
    return { ...tail, fromSnapshot: true };
  }

  /**
   * The lines after byte `version`, when the line that ends there holds `last` (see
   * SessionStore.readAfter); the temporary files were cleaned when the writer first read.
   */
  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    const files = this.#files(id);
    const expected = Buffer.from(last, 'utf8');
    // The line ending at `version`: its entry and a header of at most 48 bytes, and the newline before it.
    const from = Math.max(0, version - expected.length - 50);
    const bytes = await guarded(this, id, 'read', () => readRange(files.log, from));
    if (bytes === undefined || version < 1 || from + bytes.length < version) return undefined;
    const head = bytes.subarray(0, version - from);
    const lineStart = head.lastIndexOf(10, head.length - 2) + 1;
    if (head.at(-1) !== 10 || (lineStart === 0 && from > 0)) return undefined;
    const line = head.subarray(lineStart, head.length - 1);
    const marked = markedLine(line);
    if (!(marked?.entry ?? line).equals(expected)) return undefined;
    const after = countingLines(bytes.subarray(version - from), version, version);
    return { entries: entriesOf(after.lines), version: after.version };
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    const files = this.#files(id);
    const write = async () => {
      const holder = options?.holder;
      if (holder !== undefined && (await readLock(files.lock))?.holder !== holder) throw leaseLost(this, id, holder);
      const done = await appendLine(files.log, entry, expectedVersion, this.#fsync);
      if (!done.appended) throw conflict(this, id, expectedVersion, done.found);
      if (options?.snapshot === true)
        await writeMark(files, { offset: done.start, version: expectedVersion, nonce: done.nonce });
      return done.version;
    };
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

  async readLease(id: string): Promise<RecordedLease | undefined> {
    const files = this.#files(id);
    const lock = await guarded(this, id, 'lease', () => readLock(files.lock));
    return lock === undefined ? undefined : { holder: lock.holder, remainingMs: lock.expiresAt - Date.now() };
  }
}
