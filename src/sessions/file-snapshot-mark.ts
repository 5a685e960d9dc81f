import { open, readFile, rename, unlink } from 'node:fs/promises';

/** Where a FileSessionStore keeps one session's snapshot mark. */
export interface MarkFiles {
  /** The log (`<id>.jsonl`). */
  log: string;
  /** The mark (`<id>.snap`): `{ "offset": n }`, where the log's newest snapshot entry starts. */
  mark: string;
  /** Writes a private temporary file with `text` and hands its path to `use`. */
  withTemporary<T>(text: string, use: (path: string) => Promise<T>): Promise<T>;
}

/** Records that the log's newest snapshot entry starts at byte `offset` (written aside, then renamed into place). */
export async function writeMark(files: MarkFiles, offset: number): Promise<void> {
  await files.withTemporary(JSON.stringify({ offset }), (path) => rename(path, files.mark));
}

/** Removes the mark (none is fine). */
export async function removeMark(files: MarkFiles): Promise<void> {
  await unlink(files.mark).catch((error: { code?: string }) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

async function markedOffset(path: string): Promise<number | undefined> {
  try {
    const offset = (JSON.parse(await readFile(path, 'utf8')) as { offset?: unknown })?.offset;
    return typeof offset === 'number' && Number.isInteger(offset) && offset > 0 ? offset : undefined;
  } catch {
    return undefined; // none, or not one of ours: the log is read whole
  }
}

/**
 * The log's bytes from its marked snapshot entry on, and that entry's offset; undefined when
 * there is no mark, or it does not fall on the start of a line of this log (a log deleted and
 * written again since): the caller then reads the log whole. A log that was deleted and
 * written again can only put the mark at the start of some line of the new log, and every
 * snapshot entry holds the whole state, so what is read from there is still the session's.
 */
export async function readFromMark(files: MarkFiles): Promise<{ offset: number; text: string } | undefined> {
  const offset = await markedOffset(files.mark);
  if (offset === undefined) return undefined;
  const bytes = await readLinesFrom(files.log, offset);
  return bytes === undefined || bytes.length === 0 ? undefined : { offset, text: bytes.toString('utf8') };
}

/**
 * The log's bytes from byte `start` to its end; undefined when there is no log, it ends
 * before `start`, or `start` is not the start of a line (a log deleted and written again).
 */
export async function readLinesFrom(log: string, start: number): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(log, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (start < 0 || start > size) return undefined;
    // The byte before `start` too: a line starts after a '\n' (or at 0).
    const from = Math.max(0, start - 1);
    const bytes = Buffer.alloc(size - from);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
    if (start === 0) return bytes.subarray(0, bytesRead);
    return bytes[0] === 10 ? bytes.subarray(1, bytesRead) : undefined;
  } finally {
    await handle.close();
  }
}
