import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { UsageError } from './usage-error.js';
import { sameFile, writeFileSafely } from './write-safely.js';

/** Where `lousho report` writes by default: beside the input, `run.jsonl` -> `run.report.html`. */
export function defaultReportPath(input: string): string {
  const name = basename(input);
  const stem = extname(name) === '' ? name : name.slice(0, -extname(name).length);
  return join(dirname(input), `${stem}.report.html`);
}

/**
 * Writes the page to `path` the never-destroy way (see {@link writeFileSafely}): a file there
 * is replaced only by a page that was written whole and read back the same. It never writes
 * over `input`, the file the report was made from. A path it cannot write is refused with
 * one line that says why (exit 2), starting with `label`, the command that writes it.
 */
export async function writeReport(path: string, html: string, input?: string, label = 'lousho report'): Promise<void> {
  if (input !== undefined && (await sameFile(input, path)))
    throw new UsageError(`lousho report: --out is the file it reads (${path}); the report goes to another file.`);
  await writeFileSafely(
    path,
    html,
    async (written) => {
      if ((await readFile(written, 'utf8')) !== html)
        throw new Error(`the page written to ${path} did not read back whole; ${path} was left as it was`);
    },
    label,
  );
}
