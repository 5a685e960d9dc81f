import { compactorStrategy } from '../compaction/compactor-strategy.js';
import { pruneToolResultsStrategy } from '../compaction/prune-tool-results.js';
import { summarizeStrategy } from '../compaction/summarize.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { CompactionStrategy } from '../compaction/types.js';
import { FORMAT_NAMES } from '../converters/transcript-format.js';
import { LLMSummarizer } from '../core/llm-summarizer.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { resolveProvider } from '../providers/resolve-provider.js';
import type { CliIO } from './cli-io.js';
import { cliCompactionSizes, compactFile, describeProtectedTail } from './compaction-defaults.js';
import { COMMAND_HELP } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';
import { startProgress } from './progress.js';
import { repairOption } from './repair-option.js';
import { count } from './report-format.js';
import { countingModel } from './transcript-count.js';
import { describeSource, readTranscriptFile, type TranscriptSource, writeTranscript } from './transcript-file.js';
import { formatOption, readTranscriptArg, tokensOption } from './transcript-input.js';
import { UsageError } from './usage-error.js';
import { sameFile, writeFileSafely } from './write-safely.js';

const STRATEGIES = ['prune', 'compactor', 'summarize', 'two-phase'];

/** The strategy --strategy names, with the model --summarizer names (summarize and two-phase need one). */
function strategy(name: string, summarizer: string | undefined): CompactionStrategy {
  if (!STRATEGIES.includes(name))
    throw new UsageError(`lousho compact: --strategy must be one of ${STRATEGIES.join(', ')}; got ${name}.`);
  if (name === 'prune') return pruneToolResultsStrategy();
  if (name === 'compactor')
    return compactorStrategy(
      summarizer === undefined ? {} : { summarizer: new LLMSummarizer({ model: resolveProvider(summarizer) }) },
    );
  if (summarizer === undefined)
    throw new UsageError(
      `lousho compact: --strategy ${name} needs a model: add --summarizer provider/model, e.g. --summarizer openai/gpt-4o-mini.`,
    );
  return name === 'summarize' ? summarizeStrategy({ model: summarizer }) : twoPhaseStrategy({ model: summarizer });
}

/**
 * A summarizer that failed (unreachable, or its summary refused): the compaction asked for
 * did not happen, so nothing is written and the command fails, in one line.
 */
function failedSummarizer(summarizer: string, error: Error): never {
  const why = (error.message.split('\n')[0] ?? '').trim();
  throw new LoushoError(
    LoushoError.isInstance(error) ? error.code : 'LOUSHO_PROVIDER_FAILED',
    `lousho compact: the summarizer ${summarizer} failed, so nothing was written: ${why}`,
    { cause: error },
  );
}

/**
 * Writes the compacted transcript to `out` without ever destroying what is there: see
 * {@link writeFileSafely}. The check reads the written file back as the format it was written
 * in and requires the same text again from what it read, the same number of messages in it.
 */
async function writeOut(out: string, json: string, messages: number, source: TranscriptSource, to = source.format) {
  await writeFileSafely(
    out,
    json,
    async (written) => {
      const back = await readTranscriptFile(written, { from: to });
      if (back.messages.length !== messages || writeTranscript(back.messages, source, to) !== json)
        throw new Error(
          `lousho compact: the file written to ${out} did not read back as the compacted transcript; ${out} was left as it was.`,
        );
    },
    'lousho compact',
  );
}

/** Whether a compaction gave back the messages it was given. */
const same = (after: readonly Message[], before: readonly Message[]) =>
  after.length === before.length &&
  after.every((m, i) => m === before[i] || JSON.stringify(m) === JSON.stringify(before[i]));

/** lousho compact: one compaction, written out, with what it did reported on stderr. */
export async function compact(args: string[], io: CliIO): Promise<void> {
  const parsed = parseCommandArgs('compact', args, {
    out: { type: 'string' },
    strategy: { type: 'string', default: 'prune' },
    'protected-tokens': { type: 'string' },
    'context-window': { type: 'string' },
    model: { type: 'string' },
    to: { type: 'string' },
    from: { type: 'string' },
    trajectory: { type: 'string' },
    summarizer: { type: 'string' },
    overwrite: { type: 'boolean' },
    repair: { type: 'boolean' },
  });
  if (parsed === 'help') return io.out(COMMAND_HELP.compact);
  const { values, positionals } = parsed;
  const to = formatOption('compact', values.to, '--to');
  const name = String(values.strategy);
  const summarizer = typeof values.summarizer === 'string' ? values.summarizer : undefined;
  const chosen = strategy(name, summarizer);
  const protectedTokens = tokensOption('compact', values['protected-tokens'], '--protected-tokens');
  const contextWindow = tokensOption('compact', values['context-window'], '--context-window');
  const repair = repairOption('compact', values.repair, io);
  const {
    file,
    messages,
    source,
    tools,
    model: named,
  } = await readTranscriptArg('compact', positionals, values, repair);
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (out !== undefined && (await sameFile(file, out))) {
    if (source.log !== undefined)
      throw new UsageError(
        `lousho compact: ${file} is ${source.log}, which lousho does not write back; it would be replaced by ${FORMAT_NAMES[to ?? source.format]}. Give --out another file.`,
      );
    if (values.overwrite !== true)
      throw new UsageError(
        `lousho compact: --out is the transcript it reads (${out}); add --overwrite to replace it, or write elsewhere.`,
      );
  }
  const by = summarizer === undefined ? '' : ` (summaries by ${summarizer})`;
  const progress = startProgress(
    io,
    `compacting ${messages.length} messages of ${file} with the ${name} strategy${by}`,
  );
  // The same sizes, model and call `lousho inspect` previews with, and its count of the tokens.
  const model = countingModel(values.model, named);
  const sizes = await cliCompactionSizes('compact', model, {
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(protectedTokens === undefined ? {} : { protectedTokens }),
  });
  let result: Awaited<ReturnType<typeof compactFile>>;
  try {
    result = await compactFile(
      { messages, tools },
      { strategy: chosen, model, contextWindow: sizes.contextWindow, protectedTokens: sizes.protectedTokens },
    );
  } finally {
    progress.done();
  }
  if (summarizer !== undefined && result.error !== undefined) failedSummarizer(summarizer, result.error);
  const json = writeTranscript(result.messages, source, to);
  // A file is rewritten only for a change: a compaction, a repair, another format.
  const unchanged =
    repair.changes.length === 0 &&
    source.log === undefined &&
    (to ?? source.format) === source.format &&
    same(result.messages, messages);
  if (out === undefined) io.out(json.trimEnd());
  else if (!unchanged) await writeOut(out, json, result.messages.length, source, to);
  let written = unchanged ? '; nothing changed' : '';
  if (out !== undefined) written = unchanged ? `; nothing changed, so ${out} was not written` : `; written to ${out}`;
  const summarized = result.summary === undefined ? 0 : messages.length - (result.messages.length - 1);
  const applied = result.appliedStrategy ?? result.strategy;
  io.err(
    `${applied}: ${count(result.tokensBefore)} -> ${count(result.tokensAfter)} tokens; ${count(result.prunedToolCallIds.length)} tool results pruned, ${count(summarized)} messages summarized${written}`,
  );
  if (result.error !== undefined) io.err(`note: ${result.error.message}`);
  // A file left as it was was written in no format.
  const as = out !== undefined && unchanged ? '' : `; written as ${FORMAT_NAMES[to ?? source.format]}`;
  io.err(`read as ${describeSource(source)}${as}`);
  io.err(describeProtectedTail(sizes));
}
