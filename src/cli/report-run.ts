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
 * Writes the main job's report page and says where, as the run's last line; a page that
 * cannot be written is said too, and does not fail the run it reports on.
 */
export async function writeRunReport(data: ReportData, path: string, c: Colours): Promise<string> {
  try {
    await writeReport(path, reportPage(data, `Written by lousho ${version()} at the end of \`lousho run\``));
    return `${c.bold('Report')}: ${path} (${reportLine(data)}; open it in a browser)`;
  } catch (error) {
    return c.yellow(`The report could not be written: ${(error as Error).message}`);
  }
}
