/**
 * Runs a page's example as a reader would: in a fresh project folder, after the page's set-up
 * commands above it, and resolves to what it printed (stdout and stderr, in order).
 *
 * `@lousho/build-ai-agent` and its subpaths resolve to the source through the test config's
 * aliases, which doc-hygiene.test.ts checks against the package's `exports`; every other package
 * resolves from this repository's node_modules, so doc-hygiene.test.ts checks that the example's
 * install line names each one it imports.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatWithOptions } from 'node:util';
import { vi } from 'vitest';
import { runCli } from '../src/cli/commands.js';
import { type DocBlock, installedBy, ROOT } from './doc-examples.js';

const PACKAGE = '@lousho/build-ai-agent';
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };

/** What a block's run printed, one string of lines. */
class Printed {
  readonly #text: string[] = [];
  line = (...args: unknown[]) => {
    this.#text.push(`${formatWithOptions({ colors: false, depth: 6 }, ...args)}\n`);
  };
  write = (chunk: unknown) => {
    this.#text.push(String(chunk));
    return true;
  };
  toString() {
    return this.#text.join('').trimEnd();
  }
}

/** Runs `fn` with the process in `dir` and everything it prints captured. */
async function capture(dir: string, fn: (printed: Printed) => Promise<void>): Promise<string> {
  const printed = new Printed();
  const cwd = process.cwd();
  const spies = [
    ...(['log', 'info', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m).mockImplementation(printed.line)),
    vi.spyOn(process.stdout, 'write').mockImplementation(printed.write),
    vi.spyOn(process.stderr, 'write').mockImplementation(printed.write),
  ];
  process.chdir(dir);
  try {
    await fn(printed);
  } finally {
    process.chdir(cwd);
    for (const spy of spies) spy.mockRestore();
  }
  return printed.toString();
}

/** Whether a path of the package (as `node_modules/@lousho/build-ai-agent/<path>`) is published. */
export function isPublished(path: string): boolean {
  return packageJson.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/** Runs one line of a ```sh block in `dir`: npm install, cp from the installed package, or lousho. */
async function runCommand(line: string, dir: string, printed: Printed): Promise<void> {
  const installs = installedBy(line);
  if (installs) {
    // The packages resolve from this repository; the install line is checked by doc-hygiene.test.ts.
    return;
  }
  const words = line.replace(/#.*$/, '').trim().split(/\s+/);
  if (words[0] === 'cp' && words.length === 3) {
    const from = words[1] as string;
    const prefix = `node_modules/${PACKAGE}/`;
    if (!from.startsWith(prefix) || !isPublished(from.slice(prefix.length)))
      throw new Error(`${line}: copies ${from}, which the published package does not hold (package.json "files")`);
    const to = words[2] === '.' ? (from.split('/').at(-1) as string) : (words[2] as string);
    return copyFile(join(ROOT, from.slice(prefix.length)), join(dir, to));
  }
  // In the project that installed the package the command is on no PATH: it is run with npx.
  if (words[0] === 'lousho')
    throw new Error(`${line}: in the project that installed it, the command is \`npx lousho\``);
  const argv = words[0] === 'npx' ? words.slice(1) : words;
  if (argv[0] === 'lousho') {
    const io = { out: printed.line, err: printed.line };
    await runCli(argv.slice(1), io, async () => {
      throw new Error('the main job (lousho run) is not run by the docs tests');
    });
    return;
  }
  throw new Error(`${line}: the docs runner knows npm install, cp from the package and lousho, not this command`);
}

async function runShell(code: string, dir: string, printed: Printed): Promise<void> {
  for (const line of code.split('\n')) if (line.trim() !== '') await runCommand(line.trim(), dir, printed);
}

/**
 * Runs an example in a fresh project folder holding the page's project files above it, after the
 * set-up commands above it on its page, and resolves to what it printed. The folder's package.json names what its install line names.
 */
export async function runExample(
  block: DocBlock,
  setup: string[],
  files: readonly { name: string; code: string }[] = [],
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-doc-'));
  // A project file runs in a process of its own (`node server.mjs`): it finds its packages where the reader's would be.
  if (files.length > 0) await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  for (const file of files) await writeFile(join(dir, file.name), file.code);
  const installed = setup.flatMap((line) => installedBy(line) ?? []);
  const dependencies = Object.fromEntries(installed.map((name) => [name, '*']));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true, dependencies }, null, 2));
  await capture(dir, (printed) => runShell(setup.join('\n'), dir, printed));
  if (block.lang === 'sh') return capture(dir, (printed) => runShell(block.code, dir, printed));
  const file = join(dir, 'example.ts');
  await writeFile(file, block.code);
  return capture(dir, async () => {
    await import(/* @vite-ignore */ file);
  });
}
