import { stat } from 'node:fs/promises';
import type { CliIO } from './cli-io.js';
import { COMMAND_HELP } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';
import { tokensOption } from './transcript-input.js';
import { UsageError } from './usage-error.js';
import { checkWritable } from './write-safely.js';

/** What `lousho run` was told on its command line; each absent one takes the main job's default. */
export interface RunOptions {
  /** The folder the agent reads (default: the current one). */
  folder?: string;
  /** --model: a "provider/model" spec, used instead of the one found in the environment. */
  model?: string;
  /** --max-steps: the run's step limit. */
  maxSteps?: number;
  /** --window: the context window in tokens that compaction works against. */
  window?: number;
  /** --out: where the report page is written. */
  out?: string;
  /** --quiet: no line per step; the summary and the report's path only. */
  quiet?: boolean;
}

/** The job `lousho run` starts, given its checked options. */
export type RunJob = (options: RunOptions) => Promise<void>;

/** Whether `path` is a folder. */
export async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

function positiveWhole(value: unknown, flag: string): number | undefined {
  const n = tokensOption('run', value, flag);
  if (n !== undefined && (!Number.isInteger(n) || n < 1))
    throw new UsageError(`lousho run: ${flag} must be a whole number above 0; got ${String(value)}.`);
  return n;
}

const OPTIONS = {
  model: { type: 'string' },
  'max-steps': { type: 'string' },
  window: { type: 'string' },
  out: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

/** Whether `arg` is one of run's options, so that `lousho --quiet` (`npm start -- --quiet`) runs too. */
export function isRunOption(arg: string): boolean {
  return arg === '-q' || Object.hasOwn(OPTIONS, arg.replace(/^--/, '').split('=')[0] ?? '');
}

/** lousho run [folder] [options]: checks the folder and the options, then starts the main job. */
export async function runCommand(args: string[], io: CliIO, run: RunJob): Promise<void> {
  const parsed = parseCommandArgs('run', args, OPTIONS);
  if (parsed === 'help') return io.out(COMMAND_HELP.run);
  const { values, positionals } = parsed;
  const [folder, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`lousho run: unexpected argument ${extra}; it takes one folder.`);
  if (folder !== undefined && !(await isFolder(folder)))
    throw new UsageError(`lousho run: no folder ${folder}. Give a folder to read, or none for the current one.`);
  const maxSteps = positiveWhole(values['max-steps'], '--max-steps');
  const window = positiveWhole(values.window, '--window');
  // The page is written at the end of a long run: a path it cannot be written to is refused first.
  if (typeof values.out === 'string') await checkWritable(values.out, 'lousho run');
  const options: RunOptions = {
    ...(folder === undefined ? {} : { folder }),
    ...(typeof values.model === 'string' ? { model: values.model } : {}),
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(window === undefined ? {} : { window }),
    ...(typeof values.out === 'string' ? { out: values.out } : {}),
    ...(values.quiet === true ? { quiet: true } : {}),
  };
  await run(options);
}
