import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';

/** The ```ts code blocks of a Markdown file, in order. */
export async function codeBlocks(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/**
 * Runs a code block as a module, as a user would run the file (the package name resolves
 * to the source through the test config), and resolves to what it printed with console.log.
 */
export async function runExample(code: string, name: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-doc-'));
  const file = join(dir, `${name}.ts`);
  await writeFile(file, code);
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  try {
    await import(pathToFileURL(file).href);
  } finally {
    log.mockRestore();
  }
  return lines;
}
