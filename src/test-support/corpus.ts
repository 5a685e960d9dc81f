import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The folder of the shared trajectory corpus (see ../shared/corpus/SOURCE.md): $LOUSHO_CORPUS,
 * else shared/corpus/trajectories-raw beside the checkout (or beside its worktree folder).
 * Nothing from it is copied into the project.
 */
export function corpusDir(): string | undefined {
  const candidates = [
    process.env.LOUSHO_CORPUS,
    resolve('../shared/corpus/trajectories-raw'),
    resolve('../../shared/corpus/trajectories-raw'),
  ];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

/** The corpus's trajectory files, sorted; [] when the corpus is not there. */
export function corpusFiles(dir = corpusDir()): string[] {
  if (dir === undefined) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.traj.json'))
    .sort()
    .map((f) => join(dir, f));
}
