import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { duplicateExportedNames, exportedFunctions } from '../scripts/exported-names.js';

const src = dirname(fileURLToPath(import.meta.url));

/**
 * Names still exported by two functions, each to be renamed after the vendor or the
 * layer it belongs to. Empty: every duplicate in src/ has been cleared. A name added
 * here must say where its two declarations are and who clears them.
 */
const ALLOWED_DUPLICATES: readonly string[] = [];

describe('exported function names', () => {
  it('no two exported functions in src/ share a name', () => {
    const duplicates = duplicateExportedNames(src);
    const found = [...duplicates]
      .filter(([name]) => !ALLOWED_DUPLICATES.includes(name))
      .map(([name, where]) => `${name}: ${where.map((w) => `${w.file}:${w.line}`).join(', ')}`);
    expect(found).toEqual([]);
    // An allowed name that is no longer a duplicate is taken off the list.
    expect(ALLOWED_DUPLICATES.filter((name) => !duplicates.has(name))).toEqual([]);
  });
});

describe('duplicateExportedNames', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('reports a name exported as a function by two files, with both places', () => {
    dir = mkdtempSync(join(tmpdir(), 'exported-names-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'one.ts'), 'export function toUsage() {}\n');
    writeFileSync(join(dir, 'two.ts'), '\n\nexport const toUsage = (x: number) => x;\n');
    // Not counted: tests, re-exports, values that are not functions, functions that are not exported.
    writeFileSync(join(dir, 'two.test.ts'), 'export function toUsage() {}\n');
    writeFileSync(join(dir, 'index.ts'), "export { toUsage } from './two.js';\nexport const LIMIT = 3;\n");
    writeFileSync(join(dir, 'three.ts'), 'function toUsage() {}\nexport const LIMIT = 4;\n');
    const duplicates = duplicateExportedNames(dir);
    expect([...duplicates.keys()]).toEqual(['toUsage']);
    expect(duplicates.get('toUsage')).toEqual([
      { name: 'toUsage', file: join('a', 'one.ts'), line: 1 },
      { name: 'toUsage', file: 'two.ts', line: 3 },
    ]);
  });

  it('counts local functions exported by name, by the name they are exported under, and overloads once', () => {
    const text = [
      'function a() {}',
      'const b = function () {};',
      'export { a, b as renamed };',
      'export function over(x: string): string;',
      'export function over(x: number): number;',
      'export function over(x: unknown) { return x; }',
      'export async function* stream() {}',
      'export const wrapped = (() => 1) as () => number;',
    ].join('\n');
    expect(exportedFunctions(text, 'f.ts').map((f) => f.name)).toEqual(['a', 'renamed', 'over', 'stream', 'wrapped']);
  });
});
