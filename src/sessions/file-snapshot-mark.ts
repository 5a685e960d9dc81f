import { open, readFile, rename, unlink } from 'node:fs/promises';
import { countingLines, entriesOf, markedLine } from './file-log-lines.js';

/** Where a FileSessionStore keeps one session's snapshot mark. */
export interface MarkFiles {
  /** The log (`<id>.jsonl`). */
  log: string;
  /** The mark (`<id>.snap`): where the log's newest snapshot line starts, the version it names and its nonce. */
  mark: string;
  /** Writes a private temporary file with `text` and hands its path to `use`. */
  withTemporary<T>(text: string, use: (path: string) => Promise<T>): Promise<T>;
}

/** Where a snapshot line is: its start in the file, the version it names and its writer's nonce (the line's identity). */
export interface SnapshotMark {
  offset: number;
  version: number;
  nonce: string;
}

/** Records where the log's newest snapshot line is (written aside, then renamed into place). */
export async function writeMark(files: MarkFiles, mark: SnapshotMark): Promise<void> {
  await files.withTemporary(JSON.stringify(mark), (path) => rename(path, files.mark));
}

/** Removes the mark (none is fine). */
export async function removeMark(files: MarkFiles): Promise<void> {
  await unlink(files.mark).catch((error: { code?: string }) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** The mark; one of the older form holds only the offset of an unmarked line. Undefined for none, or one not ours. */
async function readMark(path: string): Promise<Partial<SnapshotMark> & { offset: number }> {
  try {
    const mark = JSON.parse(await readFile(path, 'utf8')) as Partial<SnapshotMark> | null;
    const offset = mark?.offset;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset > 0) return { ...mark, offset };
  } catch {}
  return { offset: 0 }; // none, or not one of ours: the log is read whole
}

/**
 * The entries from the marked snapshot line on, and the log's version; undefined when there is no
 * mark, or the line there is not the one it names (a log deleted and written again since): the
 * caller then reads the log whole. The line is known by its writer's nonce, so a mark never points
 * a reader at another log's line.
 */
export async function readFromMark(files: MarkFiles): Promise<{ entries: string[]; version: number } | undefined> {
  const mark = await readMark(files.mark);
  if (mark.offset === 0) return undefined;
  const bytes = await readLinesFrom(files.log, mark.offset);
  if (bytes === undefined || bytes.length === 0) return undefined;
  const older = mark.nonce === undefined;
  if (!older && markedLine(bytes.subarray(0, bytes.indexOf(0x0a)))?.nonce !== mark.nonce) return undefined;
  const found = countingLines(bytes, mark.offset, older ? mark.offset : (mark.version ?? -1));
  if (found.lines[0]?.start !== mark.offset) return undefined;
  return { entries: entriesOf(found.lines), version: found.version };
}

/**
 * The log's bytes from byte `start` to its end; undefined when there is no log, it ends
 * before `start`, or `start` is not the start of a line (a log deleted and written again).
 */
export async function readLinesFrom(log: string, start: number): Promise<Buffer | undefined> {
  const from = Math.max(0, start - 1); // the byte before `start` too: a line starts after a '\n' (or at 0)
  const bytes = await readRange(log, from);
  if (bytes === undefined || start > from + bytes.length) return undefined;
  if (start === 0) return bytes;
  return bytes[0] === 10 ? bytes.subarray(1) : undefined;
}

/** The log's bytes from byte `from` to its end; undefined when there is no log or it ends before `from`. */
export async function readRange(log: string, from: number): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(log, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (from < 0 || from > size) return undefined;
    const bytes = Buffer.alloc(size - from);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
