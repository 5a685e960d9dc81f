import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { isolateEnv, PROVIDER_ENV_KEYS } from '../test-support/provider-setup.js';
import { colours } from './colour.js';
import { runCli } from './commands.js';
import { runJob } from './run-job.js';

isolateEnv([...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL']);
beforeEach(() => {
  // No local server answers on port 1: the scripted model drives the run.
  process.env.OLLAMA_HOST = 'http://127.0.0.1:1';
  process.env.LMSTUDIO_BASE_URL = 'http://127.0.0.1:1/v1';
});

describe('lousho run --out', () => {
  it('refuses a page in a folder that does not exist before it runs, in one line naming lousho run, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-run-out-'));
    const page = join(dir, 'nodir', 'x.html');
    const a = captureIO();
    // noRun throws when called: the job must not start.
    expect(await runCli(['run', dir, '--out', page, '-q'], a.io, noRun)).toBe(2);
    expect(a.err).toEqual([
      `lousho run: cannot write ${page}: its folder ${join(dir, 'nodir')} does not exist. Create the folder, or give --out a path in one that exists.`,
    ]);
    expect(a.out).toEqual([]);
  });

  it('fails, naming lousho run, when the page cannot be written at the end of the run', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lousho-run-out-folder-'));
    const dir = await mkdtemp(join(tmpdir(), 'lousho-run-out-'));
    const page = join(dir, 'x.html');
    const a = captureIO();
    // The page's folder exists when run checks --out, and is gone by the time the page is written.
    const print = (line: string) => {
      if (line.startsWith('Reading ')) rmSync(dir, { recursive: true });
      a.io.out(line);
    };
    const exit = await runCli(['run', folder, '--out', page, '-q'], a.io, (o) =>
      runJob({ ...o, colours: colours(false), print }),
    );
    expect(exit).toBe(2);
    expect(a.err).toHaveLength(1);
    expect(a.err[0]).toMatch(/^lousho run: cannot write .*x\.html: its folder .* does not exist\./);
    expect(a.out.join('\n')).not.toMatch(/could not be written|lousho report/);
  });
});
