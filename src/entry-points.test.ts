import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryPoints, exportedNames } from '../scripts/count-exports.js';
import { sharedPath } from './test-support/corpus.js';

/** The specifications beside the checkout (absent in a clone users make). */
const SEEDS = sharedPath('seeds');
if (SEEDS === undefined)
  console.warn(
    'entry-points.test.ts: shared/seeds is not beside the checkout; the test of the names they import is skipped.',
  );

/** The names the seeds import from each entry point, e.g. `import { createAgent } from '@lousho/build-ai-agent'`. */
function seedImports(): Map<string, Set<string>> {
  const bySubpath = new Map<string, Set<string>>();
  for (const file of readdirSync(SEEDS as string)) {
    const text = readFileSync(join(SEEDS as string, file), 'utf8');
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@lousho\/build-ai-agent(\/[a-z-]+)?'/g)) {
      const subpath = `.${m[2] ?? ''}`;
      const names = bySubpath.get(subpath) ?? new Set<string>();
      for (const part of (m[1] ?? '').split(',')) {
        const name = part.trim().replace(/^type\s+/, '');
        if (name !== '') names.add(name);
      }
      bySubpath.set(subpath, names);
    }
  }
  return bySubpath;
}

describe('the entry points', () => {
  const entries = entryPoints();
  const names = exportedNames(entries.map((e) => e.file));
  const of = (subpath: string) =>
    (names.get(entries.find((e) => e.subpath === subpath)?.file ?? '') ?? []).map((n) => n.name);

  it.skipIf(SEEDS === undefined)(
    'export every name the specifications import, from the entry they import it from',
    () => {
      const seeds = seedImports();
      expect(seeds.get('.')?.size).toBeGreaterThan(5);
      for (const [subpath, wanted] of seeds) expect(of(subpath)).toEqual(expect.arrayContaining([...wanted]));
    },
  );

  it('keep tuning constants, strategy names and converters off the main entry', () => {
    const main = of('.');
    // DEFAULT_SUMMARY_PROMPT stays: the seed names it, and a custom prompt starts from it.
    expect(main.filter((n) => /^DEFAULT_|_NAME$|_MS$|_CHARS$/.test(n) && n !== 'DEFAULT_SUMMARY_PROMPT')).toEqual([]);
    expect(main.filter((n) => /^(from|to)[A-Z]/.test(n) && n !== 'fromAISDK')).toEqual([]);
  });

  it('publish every converter and its wire types from ./converters', () => {
    const converters = of('./converters');
    expect(converters).toEqual(
      expect.arrayContaining(['fromOpenAIChat', 'toOpenAIChat', 'OpenAIChatMessage', 'CarriedPart']),
    );
    expect(converters.filter((n) => /^(from|to)[A-Z]/.test(n))).toHaveLength(22);
  });
});
