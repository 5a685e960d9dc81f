import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `path` so that `path` is never left half-written or replaced by something
 * unreadable: the text goes to a temporary file in the same folder (flushed to disk), `check`
 * reads that file back and throws when it does not hold what was meant, and only then is the
 * temporary file renamed over `path`, which a file system does in one step. A file it replaces
 * keeps its mode. When anything fails (or the process is killed) `path` is as it was; the
 * temporary file is removed when this process still can.
 */
export async function writeFileSafely(
  path: string,
  text: string,
  check: (writtenPath: string) => Promise<void>,
): Promise<void> {
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
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
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
