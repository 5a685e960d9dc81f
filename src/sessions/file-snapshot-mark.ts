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
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(files.log, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (offset >= size) return undefined;
    const bytes = Buffer.alloc(size - offset + 1);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset - 1);
    if (bytes[0] !== 10) return undefined; // not the start of a line
    return { offset, text: bytes.subarray(1, bytesRead).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/**
 * The log's bytes from `start` to its end, with the byte before `start` ('\n' where a line
 * starts; undefined at 0); undefined when there is no log or it ends before `start`.
 */
export async function readLogFrom(
  log: string,
  start: number,
): Promise<{ before: number | undefined; bytes: Buffer } | undefined> {
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
    const from = Math.max(0, start - 1);
    const bytes = Buffer.alloc(size - from);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
    const read = bytes.subarray(0, bytesRead);
    return start === 0 ? { before: undefined, bytes: read } : { before: read[0], bytes: read.subarray(1) };
  } finally {
    await handle.close();
  }
}
