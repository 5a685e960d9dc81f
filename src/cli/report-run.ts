import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Colours } from './colour.js';
import { version } from './help.js';
import { reportLine } from './report-command.js';
import type { ReportData } from './report-data.js';
import { writeReport } from './report-file.js';
import { reportPage } from './report-page.js';

/** Where the main job writes its report when not told: the system's temporary folder, one file per run. */
export function runReportPath(now = new Date()): string {
  return join(tmpdir(), `lousho-run-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.html`);
}

/**
 * Writes the main job's report page and gives the line that says where, the run's last line.
 * A page that cannot be written fails the run with one line naming `lousho run` (a UsageError,
 * exit 2); `lousho run` checks --out before it starts, so that happens only when the file system
 * changed during the run.
 */
export async function writeRunReport(data: ReportData, path: string, c: Colours): Promise<string> {
  const page = reportPage(data, `Written by lousho ${version()} at the end of \`lousho run\``);
  await writeReport(path, page, undefined, 'lousho run');
  return `${c.bold('Report')}: ${path} (${reportLine(data)}; open it in a browser)`;
}
