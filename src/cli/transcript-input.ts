import { stat } from 'node:fs/promises';
import type { ConvertOptions } from '../converters/checked-transcript.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../converters/transcript-format.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { CommandName } from './help.js';
import { READ_FORMATS, readTranscriptFile } from './transcript-file.js';
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

/** A --from value, checked: a message format, an agent log or a session log. */
export function readFormatOption(command: CommandName, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!READ_FORMATS.includes(String(value)))
    throw new UsageError(`lousho ${command}: --from must be one of ${READ_FORMATS.join(', ')}; got ${value}.`);
  return String(value);
}

/** A --trajectory value, checked: a whole number from 1 (the first trajectory of the file). */
export function trajectoryOption(command: CommandName, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`lousho ${command}: --trajectory must be a number from 1 (the file's first); got ${value}.`);
  return n;
}

/**
 * The transcript a command works on: its one positional argument, which must be a file that
 * exists, read in the format --from names (else detected), and of a file of several
 * trajectories the one --trajectory names (from 1); `convert.repair` applies repairTranscript().
 * `flags` is the command's parsed options (or the --from value alone).
 */
export async function readTranscriptArg(
  command: CommandName,
  positionals: string[],
  flags: unknown,
  convert: ConvertOptions = {},
) {
  const { from, trajectory } =
    typeof flags === 'object' && flags !== null
      ? (flags as Record<string, unknown>)
      : { from: flags, trajectory: undefined };
  const [file, extra] = positionals;
  if (file === undefined)
    throw new UsageError(`lousho ${command}: give a transcript file, as in \`lousho ${command} transcript.json\`.`);
  if (extra !== undefined)
    throw new UsageError(`lousho ${command}: unexpected argument ${extra}; it takes one transcript file.`);
  const found = await stat(file).catch(() => undefined);
  if (found === undefined)
    throw new UsageError(`lousho ${command}: no file ${file}. Check the path, or run \`lousho ${command} --help\`.`);
  if (!found.isFile())
    throw new UsageError(
      `lousho ${command}: ${file} is a folder, not a transcript file. Give one file, as in \`lousho ${command} ${file}/session.jsonl\`.`,
    );
  const format = readFormatOption(command, from);
  const chosen = trajectoryOption(command, trajectory);
  const options = {
    ...(format === undefined ? {} : { from: format }),
    ...(chosen === undefined ? {} : { trajectory: chosen }),
  };
  try {
    return { file, ...(await readTranscriptFile(file, { ...options, ...convert })) };
  } catch (error) {
    // A --trajectory the file has not is a mistake on the command line.
    if (LoushoError.isInstance(error) && error.details?.option === 'trajectory')
      throw new UsageError(`lousho ${command}: --${error.message}`);
    throw error;
  }
}
