/**
 * Child processes for the multi-process tests: a script of src/test-support run by Node,
 * bundled once per test file with esbuild (tsx's own dependency) so each child starts in
 * about a second on a busy machine, or through `node --import tsx` when esbuild is missing.
 * Lines the child prints are collected; tests wait for them, never for a time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundles = new Map<string, Promise<string[]>>();

/** The node arguments that run `script` (a file name in src/test-support). */
export function commandFor(script: string): Promise<string[]> {
  let command = bundles.get(script);
  if (command === undefined) {
    command = (async () => {
      const entry = join(root, 'src', 'test-support', script);
      try {
        const esbuild = (await import('esbuild')) as typeof import('esbuild');
        const dir = await mkdtemp(join(tmpdir(), 'lousho-worker-'));
        await symlink(join(root, 'node_modules'), join(dir, 'node_modules'));
        const outfile = join(dir, `${basename(script, '.ts')}.mjs`);
        await esbuild.build({
          entryPoints: [entry],
          bundle: true,
          platform: 'node',
          format: 'esm',
          packages: 'external',
          outfile,
          logLevel: 'error',
        });
        return [outfile];
      } catch {
        return ['--import', 'tsx', entry];
      }
    })();
    bundles.set(script, command);
  }
  return command;
}

/** A running child and the lines it printed. */
export class Child {
  readonly process: ChildProcess;
  readonly lines: string[] = [];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #waiters: (() => void)[] = [];
  #stderr = '';

  private constructor(proc: ChildProcess) {
    this.process = proc;
    let buffer = '';
    proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk;
    });
    this.exit = new Promise((done) => {
      proc.on('exit', (code, signal) => {
        for (const wake of this.#waiters.splice(0)) wake();
        done({ code, signal });
      });
    });
  }

  /**
   * Starts `node <script> ...args` from the project root, with stdin open; `launcher` runs it
   * through a command first (`unshare --pid --fork`, say), which then is the child process.
   */
  static async start(
    script: string,
    args: string[],
    env: NodeJS.ProcessEnv = {},
    launcher: string[] = [],
  ): Promise<Child> {
    const command = [process.execPath, ...(await commandFor(script)), ...args];
    const [file, ...rest] = [...launcher, ...command] as [string, ...string[]];
    const proc = spawn(file, rest, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new Child(proc);
  }

  /** What the child wrote to stderr so far (for failure messages). */
  get stderr(): string {
    return this.#stderr;
  }

  /** Resolves to the first printed line that `matches`; rejects when the child exits without one. */
  async line(matches: (line: string) => boolean): Promise<string> {
    for (;;) {
      const found = this.lines.find(matches);
      if (found !== undefined) return found;
      if (this.process.exitCode !== null || this.process.signalCode !== null) {
        throw new Error(
          `the child exited without the line awaited; it printed:\n${this.lines.join('\n')}\n${this.#stderr}`,
        );
      }
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
  }

  /** Resolves once the child printed `count` lines that match. */
  async count(matches: (line: string) => boolean, count: number): Promise<void> {
    for (;;) {
      if (this.lines.filter(matches).length >= count) return;
      if (this.process.exitCode !== null || this.process.signalCode !== null) {
        throw new Error(`the child exited after fewer lines than awaited:\n${this.lines.join('\n')}\n${this.#stderr}`);
      }
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
  }

  send(line: string): void {
    this.process.stdin?.write(`${line}\n`);
  }

  /** SIGKILL, and waits until the process is gone (reaped, so its pid no longer answers). */
  async kill(): Promise<void> {
    this.process.kill('SIGKILL');
    await this.exit;
  }

  /** Waits for a normal exit and fails with what it printed when it was not 0. */
  async finished(): Promise<void> {
    const { code, signal } = await this.exit;
    if (code !== 0)
      throw new Error(`the child exited with ${code ?? signal}:\n${this.lines.join('\n')}\n${this.#stderr}`);
  }
}
