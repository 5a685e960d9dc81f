import { access } from 'node:fs/promises';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../converters/transcript-format.js';
import type { CommandName } from './help.js';
import { readTranscriptFile } from './transcript-file.js';
import { UsageError } from './usage-error.js';

/** A --from / --to value, checked. */
export function formatOption(command: CommandName, value: unknown, flag: string): TranscriptFormat | undefined {
  if (value === undefined) return undefined;
  const format = TRANSCRIPT_FORMATS.find((f) => f === value);
  if (format === undefined)
    throw new UsageError(`lousho ${command}: ${flag} must be one of ${TRANSCRIPT_FORMATS.join(', ')}; got ${value}.`);
  return format;
}

/** A number-of-tokens option, checked ('200_000' reads as 200000). */
export function tokensOption(command: CommandName, value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(String(value).replaceAll('_', ''));
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`lousho ${command}: ${flag} must be a number of tokens; got ${value}.`);
  return n;
}

/** The transcript a command works on: its one positional argument, which must be a file that exists. */
export async function readTranscriptArg(command: CommandName, positionals: string[], from: unknown) {
  const [file, extra] = positionals;
  if (file === undefined)
    throw new UsageError(`lousho ${command}: give a transcript file, as in \`lousho ${command} transcript.json\`.`);
  if (extra !== undefined)
    throw new UsageError(`lousho ${command}: unexpected argument ${extra}; it takes one transcript file.`);
  try {
    await access(file);
  } catch {
    throw new UsageError(`lousho ${command}: no file ${file}. Check the path, or run \`lousho ${command} --help\`.`);
  }
  return { file, ...(await readTranscriptFile(file, formatOption(command, from, '--from'))) };
}
