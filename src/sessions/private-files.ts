import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** Folders a store creates are its owner's only, whatever the umask. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files a store creates are its owner's only, whatever the umask. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and its missing parents) readable by the owner only: mkdir's mode is cut by
 * the umask, so every folder it created is chmod-ed afterwards. Folders that existed are left
 * as they are.
 */
export async function makePrivateDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  const levels: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    levels.push(at);
    if (at === first || relative(first, at).startsWith('..') || dirname(at) === at) break;
  }
  for (const level of levels.reverse()) await chmod(level, PRIVATE_DIR_MODE);
}

/** The name of a temporary file for `prefix` in `dir`: unique, and recognisable by cleanTemporary(). */
export function temporaryPath(dir: string, prefix: string): string {
  return join(dir, `${prefix}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `text` to a new private temporary file and passes its path to `use`, retrying when a cleaner removed it. */
export async function withTemporary<T>(
  dir: string,
  prefix: string,
  text: string,
  use: (path: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const path = temporaryPath(dir, prefix);
    try {
      await writeFile(path, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      await chmod(path, PRIVATE_FILE_MODE);
      return await use(path);
    } catch (error) {
      // Another process opening the session removes leftover temporary files, ours included.
      if ((error as { code?: string }).code !== 'ENOENT' || attempt >= 3) throw error;
    } finally {
      await rm(path, { force: true });
    }
  }
}

/** Removes the temporary files of `prefix` in `dir` that a crash left behind. */
export async function cleanTemporary(dir: string, prefix: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return;
    throw error;
  }
  const mine = names.filter((n) => n.startsWith(`${prefix}.`) && n.endsWith('.tmp') && !n.includes(sep));
  await Promise.all(mine.map((n) => rm(join(dir, n), { force: true })));
}
