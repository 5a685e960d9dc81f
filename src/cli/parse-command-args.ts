import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CommandName } from './help.js';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command's parsed arguments, or 'help' when --help or -h was given. */
export type ParsedArgs = { values: Record<string, string | boolean | undefined>; positionals: string[] } | 'help';

/**
 * Parses one command's arguments with node:util's parseArgs, adding --help, and turns its
 * errors (an unknown option, a missing value) into one-line usage errors that name the
 * option and the way to the command's help.
 */
export function parseCommandArgs(command: CommandName, args: string[], options: Options): ParsedArgs {
  try {
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.values.help === true) return 'help';
    return parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error;
    const option = /'(-[^' ]*)/.exec((error as Error).message)?.[1];
    const what =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? `unknown option ${option ?? ''}`
        : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
          ? `${option ?? 'an option'} needs a value`
          : (error as Error).message;
    throw new UsageError(`lousho ${command}: ${what}. See \`lousho ${command} --help\` for its options.`);
  }
}
