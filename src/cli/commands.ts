import { LoushoError } from '../errors/lousho-error.js';
import type { CliIO } from './cli-io.js';
import { compact } from './compact-command.js';
import { formats } from './formats-command.js';
import { COMMANDS, USAGE, version } from './help.js';
import { inspect } from './inspect-command.js';
import { report } from './report-command.js';
import { isFolder, isRunOption, type RunJob, runCommand } from './run-command.js';
import { isUsageError, UsageError } from './usage-error.js';

export type { CliIO } from './cli-io.js';
export { compact } from './compact-command.js';
export { USAGE } from './help.js';
export { inspect } from './inspect-command.js';
export { report } from './report-command.js';
export type { RunJob, RunOptions } from './run-command.js';

/**
 * Runs one command line; resolves to the exit code: 0 done, 2 a mistake on the command line
 * or a file that holds no transcript (printed as one line naming it and what to do), 1 a typed error (printed with its code) or
 * any other failure (one line; LOUSHO_DEBUG=1 prints the stack).
 */
export async function runCli(argv: string[], io: CliIO, run: RunJob): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'inspect') await inspect(rest, io);
    else if (command === 'compact') await compact(rest, io);
    else if (command === 'report') await report(rest, io);
    else if (command === 'formats') await formats(rest, io);
    else if (command === 'run') await runCommand(rest, io, run);
    else if (command === 'help' || command === '--help' || command === '-h') io.out(USAGE);
    else if (command === '--version' || command === '-v') io.out(version());
    else if (command?.startsWith('-') && isRunOption(command)) await runCommand(argv, io, run);
    else if (command?.startsWith('-'))
      throw new UsageError(`lousho: unknown option ${command}. See \`lousho --help\` for the commands and options.`);
    // `run` is the default: `lousho` and `lousho <folder>` run the agent too.
    else if (command === undefined || (await isFolder(command))) await runCommand(argv, io, run);
    else
      throw new UsageError(
        `lousho: unknown command ${command} (and no folder of that name). Commands: ${COMMANDS.join(', ')}; see \`lousho --help\`.`,
      );
    return 0;
  } catch (error) {
    if (isUsageError(error)) {
      io.err(error.message);
      return 2;
    }
    if (LoushoError.isInstance(error)) {
      io.err(`${error.code}: ${error.message}`);
      // A file that holds no transcript is a wrong argument, like a missing one.
      return error.code === 'LOUSHO_TRANSCRIPT_UNRECOGNIZED' ? 2 : 1;
    }
    io.err(`lousho: ${(error as Error)?.message ?? String(error)}`);
    if (process.env.LOUSHO_DEBUG) io.err(String((error as Error)?.stack));
    return 1;
  }
}
