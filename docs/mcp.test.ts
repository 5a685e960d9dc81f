/**
 * Runs every ```ts block of docs/mcp.md as written, each in a fresh working folder holding the
 * page's weather-server.mjs (its ```js block) and a link to the project's node_modules, so the
 * server starts with `node weather-server.mjs` as it would in a user's project. What each block
 * prints must be the ```text block that follows it.
 */
import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatWithOptions } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { examples } from './guide-examples.js';

const page = fileURLToPath(new URL('./mcp.md', import.meta.url));
const blocks = await examples(page);
const server = /```js\n([\s\S]*?)```/.exec(await readFile(page, 'utf8'))?.[1];

const cwd = process.cwd();
afterEach(() => {
  process.chdir(cwd);
  vi.restoreAllMocks();
});

describe('docs/mcp.md', () => {
  it('has the server file and examples, each with the output it prints', () => {
    expect(server).toContain('// weather-server.mjs');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block.output, block.name).toBeDefined();
  });

  it.each(blocks)('$name runs as written and prints what the page shows', async ({ code, output }) => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-mcp-doc-'));
    await symlink(fileURLToPath(new URL('../node_modules', import.meta.url)), join(dir, 'node_modules'));
    await writeFile(join(dir, 'weather-server.mjs'), server ?? '');
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
