import { colourEnabled, colours } from './colour.js';
import { runCli } from './commands.js';
import { runJob } from './run-job.js';

/**
 * Runs the `lousho` command line in this process: output on stdout and stderr (colour when the
 * terminal supports it), and the command's exit code as the process's.
 */
export function runProcess(argv: string[]): Promise<void> {
  // A reader that stopped reading (`lousho inspect t.json | head`) ends the output, quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const colour = colourEnabled(process.stdout);
  const io = {
    out: (line: string) => console.log(line),
    err: (line: string) => console.error(line),
    colour,
    ...(process.stderr.isTTY === true && colourEnabled(process.stderr)
      ? { status: (text: string) => process.stderr.write(`\r\u001b[2K${text}`) }
      : {}),
  };
  return runCli(argv, io, (options) => runJob({ ...options, colours: colours(colour), print: io.out })).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`lousho: ${(error as Error)?.message ?? String(error)}`);
      process.exitCode = 1;
    },
  );
}
