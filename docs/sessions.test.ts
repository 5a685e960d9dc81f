/**
 * Runs every ```ts block of docs/sessions.md as written, each in a fresh working folder (its
 * stores write to './sessions' and './sessions.db'), and checks that what it prints is the
 * ```text block that follows it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatWithOptions } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';

const doc = await readFile(fileURLToPath(new URL('./sessions.md', import.meta.url)), 'utf8');
const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```\n(?:\n```text\n([\s\S]*?)```)?/g)].map((m, i) => ({
  name: `example ${i + 1}: ${
    doc
      .slice(0, m.index)
      .match(/^## (.*)$/gm)
      ?.at(-1)
      ?.slice(3) ?? 'intro'
  }`,
  code: m[1] as string,
  output: m[2],
}));

const cwd = process.cwd();
afterEach(() => {
  process.chdir(cwd);
  vi.restoreAllMocks();
});

describe('docs/sessions.md', () => {
  it('has examples, each with the output it prints', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block.output, block.name).toBeDefined();
  });

  it.each(blocks)('$name runs as written and prints what the page shows', async ({ code, output }) => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-doc-'));
    process.chdir(dir);
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(formatWithOptions({ colors: false, depth: 6 }, ...args));
    });
    const file = join(dir, 'example.ts');
    await writeFile(file, code);
    await import(/* @vite-ignore */ file);
    expect(printed.join('\n')).toBe((output ?? '').trimEnd());
  });
});
