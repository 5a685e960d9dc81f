import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { CLOSE_TORN, countingLines, formatLine } from './file-log-lines.js';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** What an append did: the new version and where its line starts, or what it found instead. */
export type LineAppended =
  | { appended: true; version: number; start: number; nonce: string }
  | { appended: false; found: number | 'deleted' };

async function bytesFrom(handle: FileHandle, from: number, to: number): Promise<Buffer> {
  const bytes = Buffer.alloc(Math.max(0, to - from));
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
  return bytes.subarray(0, bytesRead);
}

async function openLog(path: string, expected: number): Promise<FileHandle | undefined> {
  const flags = constants.O_RDWR | constants.O_APPEND;
  if (expected === 0) return open(path, flags | constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    return await open(path, flags);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Appends `entry` as a line naming `expected` (see file-log-lines.ts), then reads back what follows
 * `expected`: the append took only when the first line there that counts is this one. No lock is
 * held, so nothing is left behind for anyone to wait for when the writer dies; of two appends at
 * one version the file keeps one, and the other's line is skipped by every reader. A log that does
 * not end with a newline (a writer killed in the middle of its line) has that line closed first.
 */
export async function appendLine(path: string, entry: string, expected: number, fsync: boolean): Promise<LineAppended> {
  const handle = await openLog(path, expected);
  if (handle === undefined) return { appended: false, found: 'deleted' };
  try {
    const { size, ino } = await handle.stat();
    if (size < expected) return { appended: false, found: size };
    // The version is where a line ends (after a newline): else the file is another log than the one read.
    const from = Math.max(0, expected - 1);
    const seen = await bytesFrom(handle, from, size);
    if (expected > 0 && seen[0] !== 0x0a) return { appended: false, found: size };
    const after = seen.subarray(expected - from);
    const moved = countingLines(after, expected, expected);
    if (moved.lines.length > 0) return { appended: false, found: moved.version };
    const before = after.length > 0 && after.at(-1) !== 0x0a ? CLOSE_TORN : Buffer.alloc(0);
    if (size === 0) await handle.chmod(PRIVATE_FILE_MODE);
    const nonce = randomBytes(4).toString('hex');
    await handle.write(Buffer.concat([before, formatLine(entry, expected, nonce)]));
    if (fsync) await handle.datasync();
    const written = await bytesFrom(handle, expected, (await handle.stat()).size);
    const { lines, version } = countingLines(written, expected, expected);
    const first = lines[0];
    if (first?.nonce !== nonce) return { appended: false, found: version };
    // Written to the file that is still the log (not one deleted since it was opened).
    if ((await stat(path).catch(() => undefined))?.ino !== ino) return { appended: false, found: 'deleted' };
    return { appended: true, version: first.end, start: first.start, nonce };
  } finally {
    await handle.close();
  }
}
