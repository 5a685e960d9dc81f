import { readFile } from 'node:fs/promises';
import type { CliIO } from './cli-io.js';
import { COMMAND_HELP, version } from './help.js';
import { parseCommandArgs } from './parse-command-args.js';
import { repairOption } from './repair-option.js';
import { marksInWords, type ReportData } from './report-data.js';
import { defaultReportPath, writeReport } from './report-file.js';
import { sessionLogReport } from './report-from-session-log.js';
import { transcriptReport } from './report-from-transcript.js';
import { reportPage } from './report-page.js';
import { isSessionLog } from './session-log-file.js';
import { describeSource } from './transcript-file.js';
import { readTranscriptArg, tokensOption } from './transcript-input.js';
import { UsageError } from './usage-error.js';

/** What a report shows, in one line: '147 steps, 68 compactions, 2 recoveries'. */
export function reportLine(data: ReportData): string {
  return `${data.steps.length} steps, ${marksInWords(data.marks)}`;
}

/**
 * lousho report: one self-contained HTML page picturing a run, from a transcript (its
 * assistant turns are the steps, sized by estimate) or a FileSessionStore log (its
 * checkpoints and compactions as they happened), written beside the input or to --out.
 */
export async function report(args: string[], io: CliIO): Promise<void> {
  const parsed = parseCommandArgs('report', args, {
    out: { type: 'string' },
    model: { type: 'string' },
    from: { type: 'string' },
    trajectory: { type: 'string' },
    'context-window': { type: 'string' },
    threshold: { type: 'string' },
    repair: { type: 'boolean' },
  });
  if (parsed === 'help') return io.out(COMMAND_HELP.report);
  const { values, positionals } = parsed;
  const contextWindow = tokensOption('report', values['context-window'], '--context-window');
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(threshold > 0 && threshold <= 1))
    throw new UsageError(
      `lousho report: --threshold must be a share of the window, such as 0.8; got ${values.threshold}.`,
    );
  const read = await readTranscriptArg('report', positionals, values, repairOption('report', values.repair, io));
  const model = typeof values.model === 'string' ? values.model : (read.model ?? 'gpt-4o');
  const options = {
    model,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(threshold === undefined ? {} : { thresholdPercent: threshold }),
  };
  const out = typeof values.out === 'string' ? values.out : defaultReportPath(read.file);
  const text = read.source.container === 'session' ? await readFile(read.file, 'utf8') : undefined;
  const sessionLog = text !== undefined && (values.from === 'session-log' || isSessionLog(text));
  const data = sessionLog
    ? sessionLogReport(read.file, text, options)
    : transcriptReport(read.file, read, `read as ${describeSource(read.source)}`, options);
  await writeReport(out, reportPage(data, `Written by lousho ${version()}`), read.file);
  io.out(`${out}: ${reportLine(data)}; ${data.source}`);
}
