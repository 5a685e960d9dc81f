import type { ConvertOptions } from '../converters/checked-transcript.js';
import type { TranscriptRepair } from '../messages/repair.js';
import type { CliIO } from './cli-io.js';
import type { CommandName } from './help.js';

/**
 * How a command reads with its --repair flag: repairTranscript() when given, each change it
 * made printed on stderr as it is made (and kept in `changes`), and, without it, a transcript
 * whose calls and results do not pair refused with an error that names the flag rather than
 * the library function.
 */
export function repairOption(
  command: CommandName,
  repair: unknown,
  io: CliIO,
): ConvertOptions & { changes: TranscriptRepair[] } {
  const changes: TranscriptRepair[] = [];
  return {
    repair: repair === true,
    onRepair: (made) => {
      changes.push(...made);
      for (const c of made) io.err(`repaired messages[${c.index}]: ${c.description}`);
    },
    repairHint: `\`lousho ${command} --repair\` fixes this without dropping anything the file holds and prints each change.`,
    changes,
  };
}
