/**
 * The lines of a FileSessionStore log. Each entry is one line that names the version it follows:
 * `\x1e<version>:<nonce>:<bytes>\x1f<entry>\n`, where the version is the byte offset where the log
 * ended when its writer read it. A line counts only when it names the version the lines before it
 * lead to, so of two appends at one version only the first in the file counts, whoever wrote it and
 * whatever became of them: the fence is in the file itself, and no lock is needed (a writer that dies
 * leaves nothing anyone must wait for). A line that does not count (the loser of a race, a line torn
 * by a kill, a torn line closed by the next writer with `\x18\n`) is skipped by every reader, and the
 * log's version is where its last counting line ends. A line without the mark counts where the
 * lines before it end: the older form of the log (each entry as it is), or a line someone else
 * appended, which the session then reports as not one this library wrote.
 */

const MARK = 0x1e;
const SEPARATOR = 0x1f;
/** Ends a torn line that the next writer closes, so that line never counts. */
const CANCEL = 0x18;
const NEWLINE = 0x0a;
/** What a writer puts before its line when the log does not end with a newline (a torn line). */
export const CLOSE_TORN = Buffer.from([CANCEL, NEWLINE]);
const HEADER = /^(\d{1,15}):([0-9a-f]{8}):(\d{1,15})$/;

/** A line that counts: where it starts and ends in the file, its writer's nonce (none for the older form), its entry. */
export interface CountingLine {
  start: number;
  end: number;
  nonce: string | undefined;
  entry: Buffer;
}

/** The bytes of the line that appends `entry` at `version`, with the writer's `nonce` (8 hex digits). */
export function formatLine(entry: string, version: number, nonce: string): Buffer {
  const body = Buffer.from(entry, 'utf8');
  return Buffer.concat([Buffer.from(`\x1e${version}:${nonce}:${body.length}\x1f`, 'latin1'), body, Buffer.from('\n')]);
}

/** The version and nonce a marked line names, and its entry; undefined for a line that is not one whole. */
export function markedLine(line: Buffer): { version: number; nonce: string; entry: Buffer } | undefined {
  if (line[0] !== MARK) return undefined;
  const separator = line.indexOf(SEPARATOR, 1);
  if (separator < 0 || separator > 48) return undefined;
  const found = HEADER.exec(line.toString('latin1', 1, separator));
  if (found === null) return undefined;
  const entry = line.subarray(separator + 1);
  if (entry.length !== Number(found[3])) return undefined;
  return { version: Number(found[1]), nonce: found[2] as string, entry };
}

/**
 * The lines of `bytes` that count. `bytes` start at a line start at file offset `offset`, where the
 * log's version is `version`. A torn last line (no newline yet) is left out.
 */
export function countingLines(
  bytes: Buffer,
  offset: number,
  version: number,
): { lines: CountingLine[]; version: number } {
  const lines: CountingLine[] = [];
  let at = version;
  for (let pos = 0; pos < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, pos);
    if (newline < 0) break;
    const line = bytes.subarray(pos, newline);
    const start = offset + pos;
    const end = offset + newline + 1;
    pos = newline + 1;
    const marked = markedLine(line);
    if (marked !== undefined) {
      if (marked.version !== at) continue;
      lines.push({ start, end, nonce: marked.nonce, entry: marked.entry });
      at = end;
    } else if (start === at && line[0] !== MARK && line.at(-1) !== CANCEL) {
      lines.push({ start, end, nonce: undefined, entry: line });
      at = end;
    }
  }
  return { lines, version: at };
}

/** The entries of counting lines, as strings. */
export function entriesOf(lines: readonly CountingLine[]): string[] {
  return lines.map((line) => line.entry.toString('utf8'));
}

/**
 * The entries of a FileSessionStore log file, as the store reads them, for a tool that reads the
 * file itself; a last line without its newline is read too (a file at rest that someone wrote).
 */
export function fileLogEntries(text: string): string[] {
  const bytes = Buffer.from(text.endsWith('\n') || text === '' ? text : `${text}\n`, 'utf8');
  return entriesOf(countingLines(bytes, 0, 0).lines);
}
