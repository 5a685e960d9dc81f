#!/usr/bin/env node
/**
 * The `lousho` command. `lousho run [folder]` (the default, `npm start`) is the main job: an
 * agent reads a folder with real file tools and compacts its transcript as it goes (see
 * run-job.ts). `lousho inspect` and `lousho compact` work on a saved transcript. `lousho
 * --help` lists them all.
 */
import { colourEnabled, colours } from './colour.js';
import { runCli } from './commands.js';
import { runJob } from './run-job.js';

const colour = colourEnabled(process.stdout);
const io = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
  colour,
  ...(process.stderr.isTTY === true && colourEnabled(process.stderr)
    ? { status: (text: string) => process.stderr.write(`\r\u001b[2K${text}`) }
    : {}),
};
runCli(process.argv.slice(2), io, (args) => runJob(args, { colours: colours(colour), out: io.out })).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`lousho: ${(error as Error)?.message ?? String(error)}`);
    process.exitCode = 1;
  },
);
