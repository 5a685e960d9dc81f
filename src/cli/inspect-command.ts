import type { CliIO } from './cli-io.js';
import { colours } from './colour.js';
import { COMMAND_HELP } from './help.js';
import { inspectReport } from './inspect-report.js';
import { parseCommandArgs } from './parse-command-args.js';
import { repairOption } from './repair-option.js';
import { tokenChart } from './token-chart.js';
import { describeSource } from './transcript-file.js';
import { readTranscriptArg, tokensOption } from './transcript-input.js';
import { UsageError } from './usage-error.js';

/** lousho inspect: what a transcript is made of, as a chart or (--json) as numbers. */
export async function inspect(args: string[], io: CliIO): Promise<void> {
  const parsed = parseCommandArgs('inspect', args, {
    model: { type: 'string' },
    from: { type: 'string' },
    trajectory: { type: 'string' },
    'context-window': { type: 'string' },
    threshold: { type: 'string' },
    'protected-tokens': { type: 'string' },
    json: { type: 'boolean' },
    repair: { type: 'boolean' },
  });
  if (parsed === 'help') return io.out(COMMAND_HELP.inspect);
  const { values, positionals } = parsed;
  const contextWindow = tokensOption('inspect', values['context-window'], '--context-window');
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1))
    throw new UsageError(
      `lousho inspect: --threshold must be a share of the window, such as 0.8; got ${values.threshold}.`,
    );
  const protectedTokens = tokensOption('inspect', values['protected-tokens'], '--protected-tokens');
  const { file, source, ...read } = await readTranscriptArg(
    'inspect',
    positionals,
    values,
    repairOption('inspect', values.repair, io),
  );
  const report = await inspectReport(
    file,
    { ...read, source },
    {
      ...(typeof values.model === 'string' ? { model: values.model } : {}),
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(protectedTokens === undefined ? {} : { protectedTokens }),
      ...(threshold === undefined ? {} : { thresholdPercent: threshold }),
    },
  );
  if (values.json === true) return io.out(JSON.stringify({ ...report, source: describeSource(source) }, null, 2));
  for (const line of tokenChart(report, describeSource(source), colours(io.colour === true))) io.out(line);
}
