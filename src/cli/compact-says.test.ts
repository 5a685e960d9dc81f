import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { runCli } from './commands.js';

async function transcript(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-compact-says-')), 't.json');
  await writeFile(path, JSON.stringify(readingTranscript(6, 3_000)));
  return path;
}

describe('what lousho compact says it did', () => {
  it('does not say a file was written as a format when nothing was written', async () => {
    const path = await transcript();
    const first = captureIO();
    const argv = ['compact', path, '--out', path, '--overwrite', '--protected-tokens', '0'];
    expect(await runCli(argv, first.io, noRun)).toBe(0);
    expect(first.err[2]).toBe('read as lousho messages in a JSON array; written as lousho messages');
    const compacted = await readFile(path, 'utf8');
    // Compacted once, the file has nothing left to prune.
    const again = captureIO();
    expect(await runCli(argv, again.io, noRun)).toBe(0);
    expect(again.err[1]).toMatch(/nothing changed, so .* was not written$/);
    expect(again.err[2]).toBe('read as lousho messages in a JSON array');
    expect(await readFile(path, 'utf8')).toBe(compacted);
  });
});
