/**
 * The runner of the guides' examples: every ```ts block of a page is run as written (the
 * package name resolves to the source through the test config), in a fresh working folder,
 * and what it prints with console.log must be the ```text block that follows it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatWithOptions } from 'node:util';
import { vi } from 'vitest';

/** One example of a page: its code, the output the page shows under it, and a name for the test. */
export interface Example {
  name: string;
  code: string;
  output: string | undefined;
}

/** The ```ts (or ```sh, with `lang`) blocks of a page, each with the ```text block after it. */
export async function examples(path: string, lang = 'ts'): Promise<Example[]> {
  const doc = await readFile(path, 'utf8');
  const pattern = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n(?:\\n\`\`\`text\\n([\\s\\S]*?)\`\`\`)?`, 'g');
  return [...doc.matchAll(pattern)].map((m, i) => {
    const heading =
      doc
        .slice(0, m.index)
        .match(/^## (.*)$/gm)
        ?.at(-1)
        ?.slice(3) ?? 'intro';
    return { name: `example ${i + 1}: ${heading}`, code: m[1] as string, output: m[2] };
  });
}

/** Runs a ```ts example in a fresh folder and resolves to what it printed, one string. */
export async function runTsExample(code: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-guide-'));
  const cwd = process.cwd();
  process.chdir(dir);
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(formatWithOptions({ colors: false, depth: 6 }, ...args));
  });
  try {
    const file = join(dir, 'example.ts');
    await writeFile(file, code);
    await import(/* @vite-ignore */ file);
  } finally {
    log.mockRestore();
    process.chdir(cwd);
  }
  return printed.join('\n');
}
