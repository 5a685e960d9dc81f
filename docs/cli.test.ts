/**
 * Runs the `lousho` commands of docs/cli.md's ```sh blocks (through runCli, as the bin does) in a
 * folder holding docs/fixtures/reading.json as transcript.json, and checks that what they print
 * (stdout and stderr, in order) is the ```text block that follows.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/commands.js';
import { examples } from './guide-examples.js';

const blocks = await examples(fileURLToPath(new URL('./cli.md', import.meta.url)), 'sh');
const fixture = fileURLToPath(new URL('./fixtures/reading.json', import.meta.url));
const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

const noRun = async () => {
  throw new Error('the main job is not run here');
};

describe('docs/cli.md', () => {
  it('has commands, each with the output it prints', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) expect(block.output, block.name).toBeDefined();
  });

  it.each(blocks)('$name prints what the page shows', async ({ code, output }) => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-cli-doc-'));
    await copyFile(fixture, join(dir, 'transcript.json'));
    process.chdir(dir);
    const printed: string[] = [];
    const io = { out: (l: string) => printed.push(l), err: (l: string) => printed.push(l) };
    for (const line of code.trim().split('\n')) {
      const [command, ...argv] = line.trim().split(/\s+/);
      expect(command).toBe('lousho');
      await runCli(argv, io, noRun);
    }
    expect(printed.join('\n')).toBe((output ?? '').trimEnd());
  });
});
