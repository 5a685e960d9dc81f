import { execFileSync } from 'node:child_process';
import { copyFile, lstat, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Child } from '../test-support/child-process.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedFixture } from '../test-support/corpus.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { runCli } from './commands.js';

const io = captureIO;

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-never-destroy-'));
}

const claudeCode = sharedFixture(
  'fixtures/transcripts/claude-code/ccviewer-nextjs-todo-orchestrator.jsonl',
  'compact-never-destroys.test.ts',
  'the test on a real Claude Code session',
);

describe('lousho compact never destroys a file', () => {
  it.skipIf(claudeCode === undefined)(
    'refuses to replace a real Claude Code session, which it reads but does not write back, and leaves the file byte for byte as it was',
    async () => {
      const dir = await folder();
      const path = join(dir, 'session.jsonl');
      await copyFile(claudeCode as string, path);
      const before = await readFile(path);
      const a = io();
      const code = await runCli(['compact', path, '--out', path, '--overwrite'], a.io, noRun);
      expect(code).not.toBe(0);
      expect(a.err.join('\n')).toMatch(
        /Claude Code session JSONL \(405 subagent records .*\), which lousho does not write back; .*Give --out another file/,
      );
      expect((await readFile(path)).equals(before)).toBe(true);
      expect(await readdir(dir)).toEqual(['session.jsonl']);
    },
  );

  it('refuses a file that holds nothing, with exit 2, and writes nothing', async () => {
    const dir = await folder();
    for (const text of ['', '\n\n', '[]', '{"messages":[]}']) {
      const path = join(dir, 'empty.json');
      await writeFile(path, text);
      const out = join(dir, 'out.json');
      const a = io();
      expect(await runCli(['compact', path, '--out', out], a.io, noRun)).toBe(2);
      expect(a.err).toHaveLength(1);
      expect(a.err[0]).toMatch(/holds no messages/);
      await expect(stat(out)).rejects.toThrow(/ENOENT/);
      const b = io();
      expect(await runCli(['inspect', path], b.io, noRun)).toBe(2);
      expect(b.out).toEqual([]);
    }
  });

  it('will not write over its input without --overwrite', async () => {
    const dir = await folder();
    const path = join(dir, 't.json');
    const text = JSON.stringify(readingTranscript(6, 3_000));
    await writeFile(path, text);
    const a = io();
    const argv = ['compact', path, '--out', join(dir, '.', 't.json'), '--protected-tokens', '0'];
    expect(await runCli(argv, a.io, noRun)).toBe(2);
    expect(a.err[0]).toMatch(/--out is the transcript it reads.*--overwrite/);
    expect(await readFile(path, 'utf8')).toBe(text);

    const b = io();
    expect(await runCli([...argv, '--overwrite'], b.io, noRun)).toBe(0);
    const written = JSON.parse(await readFile(path, 'utf8')) as { role: string; content: string }[];
    expect(written).toHaveLength(14);
    expect(written.filter((m) => m.role === 'tool' && m.content.startsWith('[pruned: '))).toHaveLength(5);
    expect(await readdir(dir)).toEqual(['t.json']);
  });

  it('keeps the mode of the file it replaces', async () => {
    const dir = await folder();
    const path = join(dir, 't.json');
    await writeFile(path, JSON.stringify(readingTranscript(4, 3_000)), { mode: 0o640 });
    const a = io();
    expect(await runCli(['compact', path, '--out', path, '--overwrite'], a.io, noRun)).toBe(0);
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('leaves the target whole when the writer is killed while it writes', async () => {
    const dir = await folder();
    const input = join(dir, 'big.json');
    // Results of 400 KB each: the written transcript is megabytes, so writing it takes a while.
    await writeFile(input, JSON.stringify(readingTranscript(40, 400_000)));
    const target = join(dir, 'target.json');
    const original = `${JSON.stringify(readingTranscript(2))}\n`;
    let killedWhileWriting = 0;
    for (let round = 0; round < 3; round++) {
      // A killed writer cannot remove its temporary file: it is named after the target, and left.
      for (const name of await readdir(dir)) if (name.endsWith('.tmp')) await rm(join(dir, name));
      await writeFile(target, original);
      const before = await stat(target);
      const child = await Child.start('lousho-cli.ts', ['compact', input, '--out', target, '--to', 'openai-chat']);
      // Kill the writer the moment anything in the folder changes: a temporary file appears, or the target.
      let killed = false;
      while (child.process.exitCode === null && child.process.signalCode === null) {
        const names = await readdir(dir);
        const now = await stat(target);
        if (names.length > 2 || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
          await child.kill();
          killed = true;
          if (names.some((n) => /^\.target\.json\.\d+\.[0-9a-f]+\.tmp$/.test(n))) killedWhileWriting++;
          break;
        }
      }
      await child.exit;
      const text = await readFile(target, 'utf8');
      if (text !== original) {
        // The rename landed before the kill: then the target is the whole compacted transcript.
        const written = JSON.parse(text) as unknown[];
        expect(written).toHaveLength(82);
      }
      expect(killed || child.process.exitCode === 0).toBe(true);
    }
    // The kills landed while the temporary file was being written, not before or after.
    expect(killedWhileWriting).toBeGreaterThan(0);
  });
});

describe('--out writes a regular file or a new one, and refuses anything else in one line', () => {
  async function input(dir: string): Promise<string> {
    const path = join(dir, 't.json');
    await writeFile(path, JSON.stringify(readingTranscript(4, 3_000)));
    return path;
  }

  it('names a missing folder in one line (exit 2), never the temporary file or a raw error', async () => {
    const dir = await folder();
    const a = io();
    const out = join(dir, 'nodir', 'x.json');
    expect(await runCli(['compact', await input(dir), '--out', out, '--protected-tokens', '0'], a.io, noRun)).toBe(2);
    const line = a.err.at(-1) as string;
    expect(line).toBe(
      `lousho compact: cannot write ${out}: its folder ${join(dir, 'nodir')} does not exist. Create the folder, or give --out a path in one that exists.`,
    );
    expect(a.err.join('\n')).not.toMatch(/\.tmp|ENOENT/);
  });

  // /proc exists on Linux and takes no new file: open() of the temporary file fails with ENOENT there.
  it.skipIf(process.platform !== 'linux')(
    'names the file it was given and a next step when its folder refuses new files (/proc), never the temporary file',
    async () => {
      const from = await input(await folder());
      for (const [command, label] of [
        ['compact', 'lousho compact'],
        ['report', 'lousho report'],
      ] as const) {
        const a = io();
        const args = command === 'compact' ? ['--protected-tokens', '0'] : [];
        expect(await runCli([command, from, '--out', '/proc/x.json', ...args], a.io, noRun)).toBe(2);
        expect(a.err.at(-1)).toBe(
          `${label}: cannot write /proc/x.json: its folder takes no new files (ENOENT), so nothing was written. Give --out a file in a folder you can write to.`,
        );
        expect(a.err.join('\n')).not.toMatch(/\.tmp|^lousho: /m);
      }
    },
  );

  it('refuses a named pipe, and a link to /dev/null or /dev/full, leaving each as it was', async () => {
    const dir = await folder();
    const from = await input(dir);
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    // Links in the test's folder stand for the devices: were the refusal to fail, a link is replaced, not a device.
    for (const device of ['/dev/null', '/dev/full']) await symlink(device, join(dir, basename(device)));
    for (const [out, what] of [
      [pipe, 'a named pipe'],
      [join(dir, 'null'), 'a character device'],
      [join(dir, 'full'), 'a character device'],
      [dir, 'a folder'],
    ] as const) {
      const a = io();
      expect(await runCli(['compact', from, '--out', out, '--protected-tokens', '0'], a.io, noRun)).toBe(2);
      expect(a.err.at(-1)).toBe(
        `lousho compact: cannot write ${out}: it is ${what}, not a regular file. Give --out a regular file, or a new file in a folder that exists.`,
      );
    }
    expect((await lstat(pipe)).isFIFO()).toBe(true);
    expect(await readlink(join(dir, 'null'))).toBe('/dev/null');
    expect((await readdir(dir)).sort()).toEqual(['full', 'null', 'pipe', 't.json']);
    // lousho report writes through the same helper.
    const r = io();
    expect(await runCli(['report', from, '--out', pipe], r.io, noRun)).toBe(2);
    expect(r.err.at(-1)).toMatch(/^lousho report: cannot write .*pipe: it is a named pipe, not a regular file\./);
    expect((await lstat(pipe)).isFIFO()).toBe(true);
  });

  it('writes through a link to a regular file, and the link stays a link', async () => {
    const dir = await folder();
    const from = await input(dir);
    const real = join(dir, 'real.json');
    await writeFile(real, '[]');
    await symlink(real, join(dir, 'link.json'));
    const a = io();
    expect(
      await runCli(['compact', from, '--out', join(dir, 'link.json'), '--protected-tokens', '0'], a.io, noRun),
    ).toBe(0);
    expect((await lstat(join(dir, 'link.json'))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8'))).toHaveLength(10);
  });
});
