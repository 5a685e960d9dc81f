/**
 * Runs every ```ts block of docs/compaction.md as written (each as a module of its own,
 * importing the package by name, which vitest maps to the source) and checks each line
 * marked `// prints: <text>` against what that line logged, in order.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const markdown = readFileSync(join(here, 'compaction.md'), 'utf8');
const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const dir = mkdtempSync(join(tmpdir(), 'lousho-docs-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the lines marked `// prints:` must log, in order. */
function expectedPrints(code: string): string[] {
  return [...code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => (m[1] as string).trim());
}

describe('docs/compaction.md', () => {
  it('has code blocks, each with something it prints', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const code of blocks) expect(expectedPrints(code).length).toBeGreaterThan(0);
  });

  it.each(blocks.map((code, i) => [i + 1, code] as const))(
    'block %i runs as written and prints what it says',
    async (n, code) => {
      const file = join(dir, `block-${n}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        printed.push(args.map(String).join(' '));
      });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        await import(pathToFileURL(file).href);
      } finally {
        log.mockRestore();
        warn.mockRestore();
      }
      expect(printed).toEqual(expectedPrints(code));
    },
  );
});
