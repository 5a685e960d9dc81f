import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { colours } from './colour.js';
import { type RunOptions, runCli } from './commands.js';
import { runJob } from './run-job.js';
import { middleCut } from './token-chart.js';

describe('exit codes a script can trust', () => {
  it('refuses a folder given as the transcript in one line, exit 2, with no raw EISDIR', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-exit-'));
    for (const command of ['inspect', 'compact']) {
      const a = captureIO();
      expect(await runCli([command, dir], a.io, noRun)).toBe(2);
      expect(a.err).toHaveLength(1);
      expect(a.err[0]).toMatch(/is a folder, not a transcript file/);
      expect(a.err[0]).not.toMatch(/EISDIR/);
    }
  });

  it('fails when LOUSHO_MODEL names a model it cannot use, instead of running the scripted demo', async () => {
    const before = process.env.LOUSHO_MODEL;
    process.env.LOUSHO_MODEL = 'nonsense';
    try {
      const a = captureIO();
      const run = (options: RunOptions) => runJob({ ...options, colours: colours(false), print: a.io.out });
      expect(await runCli(['run', 'src/cli'], a.io, run)).toBe(2);
      expect(a.err).toHaveLength(1);
      expect(a.err[0]).toMatch(/cannot use LOUSHO_MODEL=nonsense/);
      expect(a.out.join('\n')).not.toMatch(/scripted model/);
    } finally {
      if (before === undefined) delete process.env.LOUSHO_MODEL;
      else process.env.LOUSHO_MODEL = before;
    }
  });

  it('shows tool names whole, or shortened in the middle so MCP tools stay apart', () => {
    expect(middleCut('read_file', 28)).toBe('read_file');
    const a = middleCut('mcp__github__create_pull_request_review', 28);
    const b = middleCut('mcp__github__create_issue_comment_reply', 28);
    expect(a).toHaveLength(28);
    expect(a).not.toBe(b);
    expect(a.startsWith('mcp__github__')).toBe(true);
  });
});
