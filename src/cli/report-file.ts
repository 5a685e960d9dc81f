import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from './usage-error.js';
import { writeFileSafely } from './write-safely.js';

/** Where `lousho report` writes by default: beside the input, `run.jsonl` -> `run.report.html`. */
export function defaultReportPath(input: string): string {
  const name = basename(input);
  const stem = extname(name) === '' ? name : name.slice(0, -extname(name).length);
  return join(dirname(input), `${stem}.report.html`);
}

/** Whether two paths name one file (through another spelling of the path or a link). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const real = (path: string) => realpath(path).catch(() => resolve(path));
  return (await real(a)) === (await real(b));
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'its folder is not a folder',
  EISDIR: 'it is a folder',
  ENOSPC: 'the disk is full',
};

/**
 * Writes the page to `path` the never-destroy way (see {@link writeFileSafely}): a file there
 * is replaced only by a page that was written whole and read back the same. It never writes
 * over `input`, the file the report was made from. A path it cannot write is refused with
 * one line that says why (exit 2).
 */
export async function writeReport(path: string, html: string, input?: string): Promise<void> {
  if (input !== undefined && (await sameFile(input, path)))
    throw new UsageError(`lousho report: --out is the file it reads (${path}); the report goes to another file.`);
  try {
    await writeFileSafely(path, html, async (written) => {
      if ((await readFile(written, 'utf8')) !== html)
        throw new Error(`the page written to ${path} did not read back whole; ${path} was left as it was`);
    });
  } catch (error) {
    const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason === undefined) throw error;
    throw new UsageError(
      `lousho report: cannot write ${path}: ${reason}. Give --out a file in a folder you can write to.`,
    );
  }
}
