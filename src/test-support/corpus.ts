import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: this file is at src/test-support/. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The folder of the shared trajectory corpus (see ../shared/corpus/SOURCE.md): $LOUSHO_CORPUS,
 * else shared/corpus/trajectories-raw beside the checkout (or beside its worktree folder),
 * wherever the tests or the benchmarks run from. Nothing from it is copied into the project.
 */
export function corpusDir(): string | undefined {
  const candidates = [
    process.env.LOUSHO_CORPUS,
    resolve(root, '../shared/corpus/trajectories-raw'),
    resolve(root, '../../shared/corpus/trajectories-raw'),
  ];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

/**
 * A file of the shared folder beside the checkout (fixtures/..., corpus/...), looked up the
 * same way as the corpus; undefined when it is not there. Tests read such files in place.
 */
export function sharedPath(path: string): string | undefined {
  const candidates = [resolve(root, '../shared', path), resolve(root, '../../shared', path)];
  return candidates.find((p) => existsSync(p));
}

/**
 * sharedPath() for a test that skips without the file: when it is not there, says so on stderr
 * as the other tests of ../shared do, naming the test file, the file it looked for and what is
 * skipped ('compact-never-destroys.test.ts: shared/fixtures/... is not beside the checkout; the
 * test on a real Claude Code session is skipped.').
 */
export function sharedFixture(path: string, testFile: string, skipped: string): string | undefined {
  const found = sharedPath(path);
  if (found === undefined)
    console.warn(`${testFile}: shared/${path} is not beside the checkout; ${skipped} is skipped.`);
  return found;
}

/** The corpus's trajectory files, sorted; [] when the corpus is not there. */
export function corpusFiles(dir = corpusDir()): string[] {
  if (dir === undefined) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.traj.json'))
    .sort()
    .map((f) => join(dir, f));
}
