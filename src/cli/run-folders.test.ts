/**
 * The main job wherever a user points it: `lousho run <folder>` with the scripted model in
 * the kinds of folder users have, each built here (and one real one: an installed package in
 * this checkout's node_modules). Every run must exit 0 and write its page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIO } from '../test-support/cli.js';
import { PROVIDER_ENV_KEYS } from '../test-support/provider-setup.js';
import { colours } from './colour.js';
import { runCli } from './commands.js';
import { runJob } from './run-job.js';

const KEYS = [...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL', 'OLLAMA_HOST', 'LMSTUDIO_BASE_URL'];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  for (const key of KEYS) delete process.env[key];
  // No local server answers on port 1: the scripted model drives every run.
  process.env.OLLAMA_HOST = 'http://127.0.0.1:1';
  process.env.LMSTUDIO_BASE_URL = 'http://127.0.0.1:1/v1';
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

async function folder(files: Record<string, string | Buffer> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-run-folder-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

const code = (i: number) => `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`;

/** The folders of the matrix, each made fresh. */
const FOLDERS: [string, () => Promise<string>][] = [
  ['an empty folder', () => folder()],
  ['a folder holding only index.ts and README.md', () => folder({ 'index.ts': code(1), 'README.md': '# A tool\n' })],
  [
    'a project root with node_modules and .git',
    () =>
      folder({
        'package.json': '{ "name": "app", "type": "module" }\n',
        'src/index.ts': code(2),
        'src/util.ts': code(3),
        'node_modules/left-pad/index.js': 'module.exports = (s) => s;\n',
        '.git/HEAD': 'ref: refs/heads/main\n',
      }),
  ],
  [
    'a tree of 10,000 files',
    async () => {
      const dir = await folder();
      for (let d = 0; d < 100; d++) {
        await mkdir(join(dir, `pkg${d}`));
        await Promise.all(
          Array.from({ length: 100 }, (_, f) => writeFile(join(dir, `pkg${d}`, `m${f}.ts`), code(d * 100 + f))),
        );
      }
      return dir;
    },
  ],
  [
    'binary files',
    () =>
      folder({
        'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
        'data.json': Buffer.from(Array.from({ length: 4_096 }, (_, i) => (i * 7919) % 256)),
        'main.ts': code(4),
      }),
  ],
  [
    'unreadable files, a named pipe and a dangling link',
    async () => {
      const dir = await folder({ 'secret.ts': code(5), 'open.ts': code(6), 'locked/inner.ts': code(7) });
      await chmod(join(dir, 'secret.ts'), 0);
      await chmod(join(dir, 'locked'), 0);
      execFileSync('mkfifo', [join(dir, 'pipe.ts')]);
      await symlink(join(dir, 'nowhere.ts'), join(dir, 'gone.ts'));
      return dir;
    },
  ],
  [
    'symlink loops',
    async () => {
      const dir = await folder({ 'a.ts': code(8) });
      await symlink(dir, join(dir, 'self'));
      await symlink(join(dir, 'b'), join(dir, 'c'));
      await symlink(join(dir, 'c'), join(dir, 'b'));
      return dir;
    },
  ],
];

const installed = resolve('node_modules/vitest');

describe('lousho run in any folder', () => {
  it.each(FOLDERS)(
    'completes in %s: exit 0, a page written, and no request rejected for size far under the window',
    async (_what, make) => {
      const dir = await make();
      const page = join(await mkdtemp(join(tmpdir(), 'lousho-run-page-')), 'run.html');
      const a = captureIO();
      const run = (options: Parameters<typeof runJob>[0]) => runJob(options);
      const exit = await runCli(['run', dir, '--out', page, '--quiet'], a.io, (o) =>
        run({ ...o, colours: colours(false), print: a.io.out }),
      );
      expect(a.err, a.err.join('\n')).toEqual([]);
      expect(exit).toBe(0);
      expect(await readFile(page, 'utf8')).toMatch(/^<!doctype html>/i);
      const text = a.out.join('\n');
      expect(text).toMatch(/^Report: .*run\.html \(\d+ steps?,/m);
      // --quiet: no line per step.
      expect(text).not.toMatch(/^step\s+\d+ \[/m);
    },
    // A 10,000-file tree is written and walked, and the run takes up to 200 scripted steps.
    60_000,
  );

  it.skipIf(!existsSync(installed))(
    'completes in a real installed package folder (node_modules/vitest of this checkout; skipped when not installed)',
    async () => {
      const page = join(await mkdtemp(join(tmpdir(), 'lousho-run-page-')), 'run.html');
      const a = captureIO();
      const exit = await runCli(['run', installed, '--out', page, '-q', '--max-steps', '40'], a.io, (o) =>
        runJob({ ...o, colours: colours(false), print: a.io.out }),
      );
      expect(a.err, a.err.join('\n')).toEqual([]);
      expect(exit).toBe(0);
      const steps = Number(/steps\s+(\d+) \(/.exec(a.out.join('\n'))?.[1]);
      expect(steps).toBeGreaterThan(1);
      expect(steps).toBeLessThanOrEqual(40);
      expect(existsSync(page)).toBe(true);
    },
    60_000,
  );
});
