import { stat } from 'node:fs/promises';
import type { ConvertOptions } from '../converters/checked-transcript.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../converters/transcript-format.js';
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

/**
 * The transcript a command works on: its one positional argument, which must be a file that
 * exists, read in the format --from names (else detected); `convert.repair` applies repairTranscript().
 */
export async function readTranscriptArg(
  command: CommandName,
  positionals: string[],
  from: unknown,
  convert: ConvertOptions = {},
) {
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
  return {
    file,
    ...(await readTranscriptFile(file, { ...(format === undefined ? {} : { from: format }), ...convert })),
  };
}
