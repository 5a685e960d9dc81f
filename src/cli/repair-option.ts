import type { ConvertOptions } from '../converters/checked-transcript.js';
import type { CliIO } from './cli-io.js';
import type { CommandName } from './help.js';

/**
 * How a command reads with its --repair flag: repairTranscript() when given, each change it
 * made printed on stderr as it is made, and, without it, a transcript whose calls and results
 * do not pair refused with an error that names the flag rather than the library function.
 */
export function repairOption(command: CommandName, repair: unknown, io: CliIO): ConvertOptions {
  return {
    repair: repair === true,
    onRepair: (changes) => {
      for (const c of changes) io.err(`repaired messages[${c.index}]: ${c.description}`);
    },
    repairHint: `\`lousho ${command} --repair\` fixes this without dropping anything the file holds and prints each change.`,
  };
}
