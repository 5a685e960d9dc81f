/**
 * The scripted run's answer says what the run read, and nothing it did not: it reads text
 * files whatever their names, and its answer names them, their sizes and how each starts.
 */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureIO } from '../test-support/cli.js';
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

async function answer(dir: string, ...argv: string[]): Promise<string> {
  const page = join(await mkdtemp(join(tmpdir(), 'lousho-run-page-')), 'run.html');
  const a = captureIO();
  const exit = await runCli(['run', dir, '--out', page, '-q', ...argv], a.io, (o) =>
    runJob({ ...o, colours: colours(false), print: a.io.out }),
  );
  expect(exit, a.err.join('\n')).toBe(0);
  const line = a.out.find((l) => l.startsWith('\nAnswer: ') || l.startsWith('Answer: '));
  return (line ?? '').trim().replace(/^Answer: /, '');
}

const tempFolder = () => mkdtemp(join(tmpdir(), 'lousho-run-answer-'));

describe("the scripted run's answer", () => {
  it.each([
    ['an empty folder', async () => tempFolder()],
    [
      'a folder of binaries',
      async () => {
        const dir = await tempFolder();
        await writeFile(join(dir, 'a.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
        await writeFile(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
        return dir;
      },
    ],
    [
      'a symlink loop',
      async () => {
        const dir = await tempFolder();
        await symlink(dir, join(dir, 'self'));
        await symlink(join(dir, 'b'), join(dir, 'c'));
        await symlink(join(dir, 'c'), join(dir, 'b'));
        return dir;
      },
    ],
  ])('in %s says it read no file and claims nothing about a project', async (_what, make) => {
    expect(await answer(await make())).toBe('I read no files, so I cannot say what this folder holds.');
  });

  it('names the text files it read whatever their extension, with their sizes and first lines, and no binary', async () => {
    const dir = await tempFolder();
    await writeFile(join(dir, 'notes.txt'), 'Shopping list\nmilk\n');
    await writeFile(join(dir, 'Makefile'), 'all:\n\tcc main.c\n');
    await writeFile(join(dir, 'blob.dat'), Buffer.from([0, 0, 1, 2]));
    const text = await answer(dir);
    expect(text).toMatch(/^I read 2 files \(35 bytes in all\): /);
    expect(text).toContain('Makefile (16 bytes, starting "all:")');
    expect(text).toContain('notes.txt (19 bytes, starting "Shopping list")');
    expect(text).not.toMatch(/blob\.dat|compaction|project centres/);
  });

  it('reads the .txt files of a 10,000-file tree, and says how many of them it read', async () => {
    const dir = await tempFolder();
    for (let d = 0; d < 100; d++) {
      await mkdir(join(dir, `d${d}`));
      await Promise.all(
        Array.from({ length: 100 }, (_, f) => writeFile(join(dir, `d${d}`, `f${f}.txt`), `note ${d * 100 + f}\n`)),
      );
    }
    const text = await answer(dir, '--max-steps', '20');
    // 20 steps: the listing, three searches and the answer, and 15 steps of three reads.
    expect(text).toMatch(
      /^I read 45 of the 10,000 text files I listed \(\d+ bytes in all\): d0\/f0\.txt \(7 bytes, starting "note 0"\), /,
    );
    expect(text).toMatch(/, and 40 more\.$/);
  }, 60_000);
});
