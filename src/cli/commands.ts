import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { compactMessages } from '../compaction/compact-messages.js';
import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import { FORMAT_NAMES, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../converters/transcript-format.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { contentLength } from '../messages/content.js';
import { estimateTokens, messageTokens, tokenProfile } from '../models/estimate-tokens.js';
import { getModelInfo } from '../models/registry.js';
import { describeSource, readTranscriptFile, writeTranscript } from './transcript-file.js';

/** Where a command writes. */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `Usage:
  lousho run [folder]                      an agent reads the folder (default: .) and compacts as it goes
  lousho inspect <transcript.json> [--model gpt-4o] [--from format]
                                           tokens per role, tool-output share, what pruning would save
  lousho compact <transcript.json> [--out file] [--strategy prune|compactor] [--to format]
                 [--protected-tokens N] [--context-window N] [--model gpt-4o] [--from format]
                                           compacts the transcript once and writes it (to stdout without --out)
                                           in the format it was read in, or the one --to names

A transcript is a JSON array of messages, { "messages": [...] } (an agent's trajectory), one
message per line (JSONL), or a session file. Its format is detected: ${TRANSCRIPT_FORMATS.join(', ')}.`;

/** A --from / --to value, checked. */
function formatOption(value: string | undefined, flag: string): TranscriptFormat | undefined {
  if (value === undefined) return undefined;
  const format = TRANSCRIPT_FORMATS.find((f) => f === value);
  if (format === undefined) throw configError(`${flag} must be one of ${TRANSCRIPT_FORMATS.join(', ')}; got ${value}.`);
  return format;
}

/** lousho inspect: what a transcript is made of. */
export async function inspect(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: { model: { type: 'string' }, from: { type: 'string' } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (file === undefined) throw configError('inspect needs a transcript file: lousho inspect <transcript.json>.');
  const model = values.model ?? 'gpt-4o';
  const { messages, source } = await readTranscriptFile(file, formatOption(values.from, '--from'));
  const profile = tokenProfile(model);
  const byRole = new Map<string, { messages: number; tokens: number; chars: number }>();
  for (const m of messages) {
    const row = byRole.get(m.role) ?? { messages: 0, tokens: 0, chars: 0 };
    row.messages++;
    row.tokens += messageTokens(m, profile);
    row.chars += contentLength(m.content);
    byRole.set(m.role, row);
  }
  const total = estimateTokens(messages, model);
  const window = getModelInfo(model)?.contextWindow;
  io.out(
    `${file}: ${messages.length} messages, ${total} tokens by ${model}'s tokenizer${window === undefined ? '' : ` (${((total / window) * 100).toFixed(1)}% of its ${window}-token window)`}`,
  );
  io.out(`  read as ${describeSource(source)}`);
  for (const [role, row] of byRole) {
    io.out(
      `  ${role.padEnd(9)} ${String(row.messages).padStart(5)} messages ${String(row.tokens).padStart(9)} tokens (${((row.tokens / total) * 100).toFixed(1)}%)`,
    );
  }
  const pruned = await compactMessages(messages, { model, protectedTokens: 0, strategy: pruneToolResultsStrategy() });
  io.out(
    `Pruning every tool result but the newest turn's would leave ${pruned.tokensAfter} tokens (${pruned.prunedToolCallIds.length} results).`,
  );
  const info = getModelInfo(model);
  if (info?.inputPricePerMillion !== undefined) {
    io.out(
      `Sending it once to ${model} costs about $${((total * info.inputPricePerMillion) / 1e6).toFixed(4)} of input.`,
    );
  }
}

/** lousho compact: one compaction, written out. */
export async function compact(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      strategy: { type: 'string', default: 'prune' },
      'protected-tokens': { type: 'string' },
      'context-window': { type: 'string' },
      model: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
    },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (file === undefined)
    throw configError('compact needs a transcript file: lousho compact <transcript.json> [--out file].');
  const to = formatOption(values.to, '--to');
  const strategies = { prune: pruneToolResultsStrategy, compactor: () => compactorStrategy() } as const;
  const make = strategies[values.strategy as keyof typeof strategies];
  if (make === undefined) throw configError(`--strategy must be prune or compactor, got ${values.strategy}.`);
  const number = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    const n = Number(value.replaceAll('_', ''));
    if (!Number.isFinite(n) || n < 0) throw configError(`${flag} must be a number of tokens, got ${value}.`);
    return n;
  };
  const protectedTokens = number(values['protected-tokens'], '--protected-tokens');
  const contextWindow = number(values['context-window'], '--context-window');
  const { messages, source } = await readTranscriptFile(file, formatOption(values.from, '--from'));
  const result = await compactMessages(messages, {
    strategy: make(),
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(protectedTokens === undefined ? {} : { protectedTokens }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
  });
  const json = writeTranscript(result.messages, source, to);
  if (values.out === undefined) io.out(json.trimEnd());
  else await writeFile(values.out, json);
  io.err(
    `${result.strategy}: ${result.tokensBefore} -> ${result.tokensAfter} tokens, ${result.prunedToolCallIds.length} results pruned${values.out === undefined ? '' : `; written to ${values.out}`}`,
  );
  io.err(`read as ${describeSource(source)}; written as ${FORMAT_NAMES[to ?? source.format]}`);
}

/** Runs one command line; resolves to the exit code. Typed errors are printed, not thrown. */
export async function runCli(argv: string[], io: CliIO, run: (args: string[]) => Promise<void>): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'inspect') await inspect(rest, io);
    else if (command === 'compact') await compact(rest, io);
    else if (command === 'help' || command === '--help' || command === '-h') io.out(USAGE);
    // `run` is the default: `lousho` and `lousho <folder>` run the agent too.
    else await run(command === 'run' ? rest : argv);
    return 0;
  } catch (error) {
    if (LoushoError.isInstance(error)) {
      io.err(`${error.code}: ${error.message}`);
      return 1;
    }
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}
