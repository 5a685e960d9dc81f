import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedFixture } from '../test-support/corpus.js';
import { runCli } from './commands.js';

/*
 * compact writes back what it did not change byte for byte. The file is a real mini-swe-agent
 * trajectory of ../shared/fixtures/transcripts (SOURCE.md there): its info holds numbers spelt
 * 3.0 and 0.0, which a parse and a stringify turn into 3 and 0, and it ends with no newline.
 */

const TRAJECTORY = sharedFixture(
  'fixtures/transcripts/mini-swe-agent/gemini3pro-django__django-11163.traj.json',
  'compact-bytes.test.ts',
  'the byte-for-byte write-back of a real mini-swe-agent trajectory',
);

/** The source text of the top-level key `key` of a JSON object text (the text up to the next top-level key). */
const keyText = (text: string, key: string, next: string) =>
  text.slice(text.indexOf(`"${key}"`), text.indexOf(`"${next}"`));

describe('compact writes back without loss', () => {
  it.skipIf(TRAJECTORY === undefined)(
    'keeps the bytes of every top-level value it did not change, and the missing final newline, of a real trajectory',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'lousho-bytes-'));
      const input = join(dir, 'a.traj.json');
      await copyFile(TRAJECTORY as string, input);
      const out = join(dir, 'b.traj.json');
      const { io, err } = captureIO();
      const options = ['--strategy', 'compactor', '--protected-tokens', '1000', '--context-window', '4000'];
      expect(await runCli(['compact', input, '--out', out, ...options], io, noRun), err.join('\n')).toBe(0);
      const [before, after] = [await readFile(input, 'utf8'), await readFile(out, 'utf8')];
      expect(after).not.toBe(before); // it compacted
      expect(before).toContain('"cost_limit": 3.0');
      expect(keyText(after, 'info', 'messages')).toBe(keyText(before, 'info', 'messages'));
      expect(after.slice(after.indexOf('"trajectory_format"'))).toBe(
        before.slice(before.indexOf('"trajectory_format"')),
      );
      expect(after.endsWith('\n')).toBe(before.endsWith('\n'));
    },
  );
});
