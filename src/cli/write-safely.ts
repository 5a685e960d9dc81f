import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';

/** Whether two paths name one file (through another spelling of the path or a link). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const real = (path: string) => realpath(path).catch(() => resolve(path));
  return (await real(a)) === (await real(b));
}

/** Why a path cannot be written, by the error code the file system gave. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is full',
};

/**
 * Why the file system refused a step of the write (creating, writing or renaming the temporary
 * file beside `path`), in words that name no temporary file: REASONS, else by its code.
 */
function writeRefusal(error: NodeJS.ErrnoException): string {
  const known = REASONS[error.code ?? ''];
  if (known !== undefined) return known;
  // An existing folder that creates no file (as /proc does) answers open(..., 'wx') with ENOENT.
  if (error.code === 'ENOENT') return 'its folder takes no new files (ENOENT)';
  return `the file system refused it (${error.code})`;
}

/** A Node system error (it has an errno code and the call that failed), not one of ours. */
const isSystemError = (error: unknown): error is NodeJS.ErrnoException =>
  error instanceof Error &&
  typeof (error as NodeJS.ErrnoException).code === 'string' &&
  typeof (error as NodeJS.ErrnoException).syscall === 'string';

/** What a path that is no regular file is, in words. */
function kind(found: Stats): string {
  if (found.isDirectory()) return 'a folder';
  if (found.isFIFO()) return 'a named pipe';
  if (found.isCharacterDevice()) return 'a character device';
  if (found.isBlockDevice()) return 'a block device';
  if (found.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The regular file that `path` names (through links), or where a new one goes; refused in one
 * line naming `path` when it is anything else (a pipe, a device, a folder; /dev/stdout unless
 * it is redirected to a file) or its folder does not exist.
 */
async function target(path: string, label: string): Promise<{ file: string; mode: number }> {
  const refuse = (why: string, fix = 'Give --out a regular file, or a new file in a folder that exists.') =>
    new UsageError(`${label}: cannot write ${path}: ${why}. ${fix}`);
  const link = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw refuse(REASONS[error.code ?? ''] ?? error.message);
  });
  if (link === undefined) {
    const folder = dirname(path);
    const found = await stat(folder).catch(() => undefined);
    if (found === undefined)
      throw refuse(
        `its folder ${folder} does not exist`,
        'Create the folder, or give --out a path in one that exists.',
      );
    if (!found.isDirectory()) throw refuse(`${folder} is not a folder`);
    return { file: path, mode: 0o644 };
  }
  // A link is followed, and the file it names is replaced (the link stays a link).
  const found = link.isSymbolicLink() ? await stat(path).catch(() => undefined) : link;
  if (found === undefined) throw refuse('it is a link to nothing');
  if (!found.isFile()) throw refuse(`it is ${kind(found)}, not a regular file`);
  return { file: link.isSymbolicLink() ? await realpath(path) : path, mode: found.mode & 0o777 };
}

/**
 * Refuses, before any work, a path that {@link writeFileSafely} would refuse for what it is
 * (a pipe, a device, a folder, a path whose folder does not exist): the same UsageError of one
 * line, starting with `label`. A command whose work is long (`lousho run`) checks --out first.
 */
export async function checkWritable(path: string, label: string): Promise<void> {
  await target(path, label);
}

/**
 * Writes `text` to `path` so that `path` is never left half-written or replaced by something
 * unreadable: the text goes to a temporary file in the same folder (flushed to disk), `check`
 * reads that file back and throws when it does not hold what was meant, and only then is the
 * temporary file renamed over `path`, which a file system does in one step. A file it replaces
 * keeps its mode; a link is followed and stays. Only a regular file, or a new path in a folder
 * that exists, is written: anything else (a named pipe, a device, /dev/stdout, a folder) and a
 * path the file system refuses (any error it gives while the temporary file is made, written or
 * renamed) are a UsageError of one line that names `path` and starts with `label` (e.g.
 * 'lousho compact') and says what to do, never the temporary file. When anything fails (or the process
 * is killed) `path` is as it was; the temporary file is removed when this process still can.
 */
export async function writeFileSafely(
  path: string,
  text: string,
  check: (writtenPath: string) => Promise<void>,
  label = 'lousho',
): Promise<void> {
  const { file, mode } = await target(path, label);
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.chmod(mode); // open() applies the umask; the replaced file's mode is kept whole
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await check(temporary);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    // Every refusal of the file system is one line naming `path`; what check() throws is its own.
    if (!isSystemError(error)) throw error;
    throw new UsageError(
      `${label}: cannot write ${path}: ${writeRefusal(error)}, so nothing was written. Give --out a file in a folder you can write to.`,
    );
  }
}
