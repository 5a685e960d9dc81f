/**
 * The code blocks of the README and the guides, and how the tests run them.
 *
 * A page's fenced blocks are read in order. A ```ts block is an example; a ```sh block is an
 * example when a ```text block follows it (commands and what they print), else it sets up the
 * examples after it on the page (`npm install ...`, `cp ...`). A ```text block right after an
 * example is what the example prints; an example without one says what it prints with
 * `// prints: <line>` comments. A block the tests do not run carries `<!-- not run: <reason> -->`
 * on the line before it, with one of the reasons of {@link NOT_RUN_REASONS}, each checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The pages whose examples run: the README and every guide of docs/. */
export function docPages(): string[] {
  const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...guides.sort().map((name) => `docs/${name}`)];
}

/** Why a block may be left unrun; the tests check each (see doc-hygiene.test.ts). */
export const NOT_RUN_REASONS = {
  declarations: 'the block declares types only (interfaces and type aliases): there is nothing to run',
  clone: 'the block is the set-up of a clone of this repository (`npm ci && npm <script>`); CI runs it',
} as const;

export type NotRunReason = keyof typeof NOT_RUN_REASONS;

/** One fenced block of a page. */
export interface DocBlock {
  /** The page, relative to the repository root. */
  page: string;
  /** 1-based, among the page's blocks of every language. */
  index: number;
  /** The line of its opening fence (1-based). */
  line: number;
  /** The fence's language ('' when it names none). */
  lang: string;
  code: string;
  /** The last `## ` heading above it. */
  heading: string;
  /** The ```text block right after it, when there is one. */
  output: string | undefined;
  /** The reason of a `<!-- not run: ... -->` comment right before it. */
  notRun: string | undefined;
}

/** Every fenced block of a page, in order. */
export function pageBlocks(page: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let heading = 'intro';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('## ')) heading = line.slice(3).trim();
    const open = /^```(\S*)\s*$/.exec(line);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.trimEnd() === '```');
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block that is never closed`);
    const before = lines.slice(0, i).findLast((l) => l.trim() !== '') ?? '';
    blocks.push({
      page,
      index: blocks.length + 1,
      line: i + 1,
      lang: open[1] as string,
      code: `${lines.slice(i + 1, end).join('\n')}\n`,
      heading,
      output: undefined,
      notRun: /^<!-- not run: (.*?) -->$/.exec(before.trim())?.[1],
    });
    i = end;
  }
  // A text block is the output of the example right before it (blank lines between).
  for (let k = 1; k < blocks.length; k++) {
    const [prev, block] = [blocks[k - 1] as DocBlock, blocks[k] as DocBlock];
    const gap = lines.slice(prev.line + prev.code.split('\n').length, block.line - 1);
    if (block.lang === 'text' && gap.every((l) => l.trim() === '') && isExampleLang(prev.lang))
      prev.output = block.code;
  }
  return blocks;
}

function isExampleLang(lang: string): boolean {
  return lang === 'ts' || lang === 'sh';
}

/** Whether a block is an example (run and checked) rather than set-up, output or prose. */
export function isExample(block: DocBlock): boolean {
  return block.notRun === undefined && (block.lang === 'ts' || (block.lang === 'sh' && block.output !== undefined));
}

/** The set-up blocks (```sh without output, not marked) of a page that come before a block. */
export function setupBefore(blocks: DocBlock[], block: DocBlock): DocBlock[] {
  return blocks.filter((b) => b.index < block.index && b.lang === 'sh' && b.output === undefined && !b.notRun);
}

/**
 * The commands a reader runs before an example: the install line nearest above it (an earlier
 * one is superseded, so each example is run with exactly what its own line installs), then every
 * other command of the set-up blocks above it, in order.
 */
export function setupCommands(blocks: DocBlock[], block: DocBlock): string[] {
  const lines = setupBefore(blocks, block)
    .flatMap((b) => b.code.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const install = lines.filter((l) => installedBy(l)).at(-1);
  return [...(install ? [install] : []), ...lines.filter((l) => !installedBy(l))];
}

/** The packages of an `npm install` line (versions dropped), or undefined when it is not one. */
export function installedBy(line: string): string[] | undefined {
  const words = line.replace(/#.*$/, '').trim().split(/\s+/);
  if (words[0] !== 'npm' || !['install', 'i', 'add'].includes(words[1] ?? '')) return undefined;
  return words
    .slice(2)
    .filter((w) => !w.startsWith('-'))
    .map(packageName);
}

/** `zod@4` -> `zod`, `@scope/name@1` -> `@scope/name`, `ai/test` -> `ai`. */
export function packageName(spec: string): string {
  const [first = '', second = ''] = spec.split('/');
  const name = first.startsWith('@') ? `${first}/${second}` : first;
  const at = name.indexOf('@', 1);
  return at < 0 ? name : name.slice(0, at);
}

/** The packages of the last `npm install` line above a block on its page, if any. */
export function installLineOf(blocks: DocBlock[], block: DocBlock): string[] | undefined {
  let found: string[] | undefined;
  for (const b of blocks) {
    if (b.index >= block.index || b.lang !== 'sh') continue;
    for (const line of b.code.split('\n')) found = installedBy(line) ?? found;
  }
  return found;
}

/** The packages a ```ts block imports (node: built-ins left out). */
export function importedPackages(code: string): string[] {
  const specs = [...code.matchAll(/^\s*import\s[^'"]*?['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
  return [...new Set(specs.filter((s) => !s.startsWith('node:') && !s.startsWith('.')).map(packageName))];
}

/** What an example prints, by the page's convention: its ```text block, or its `// prints:` lines. */
export function expectedOutput(block: DocBlock): string | undefined {
  if (block.output !== undefined) return block.output.trimEnd();
  const prints = [...block.code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => (m[1] as string).trim());
  return prints.length > 0 ? prints.join('\n') : undefined;
}
