import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Tool } from '../executor/tool.js';

/** Folders the file tools never descend into. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'coverage']);
const MAX_READ_CHARS = 200_000;
const MAX_SEARCH_HITS = 200;

export interface FileToolsOptions {
  /** The folder the tools may read; paths outside it are refused. */
  root: string;
}

function inside(root: string, path: string | undefined): string {
  const full = resolve(root, path ?? '.');
  if (full !== root && !full.startsWith(root + sep)) {
    throw new Error(`Path "${path}" is outside the folder the tools may read (${root}). Use a path relative to it.`);
  }
  return full;
}

async function walk(dir: string, out: string[], limit: number): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (out.length >= limit) return;
    if (SKIPPED.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, out, limit);
    else if (entry.isFile()) out.push(full);
  }
}

/**
 * Read-only tools over one folder: list_files, read_file and search_files. They are what
 * the main example and tests use to build real, tool-heavy transcripts.
 */
export function fileTools(options: FileToolsOptions): Tool<Record<string, unknown>, string>[] {
  const root = resolve(options.root);
  return [
    {
      name: 'list_files',
      description: 'List the files and folders in a folder (folders end with /).',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Folder relative to the project root; "." for the root.' } },
        additionalProperties: false,
      },
      async execute(args) {
        const dir = inside(root, args.path as string | undefined);
        const entries = await readdir(dir, { withFileTypes: true });
        return entries
          .filter((e) => !SKIPPED.has(e.name))
          .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
          .sort()
          .join('\n');
      },
    },
    {
      name: 'read_file',
      description: 'Read a text file. Returns its content.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'File path relative to the project root.' } },
        required: ['path'],
        additionalProperties: false,
      },
      async execute(args) {
        const file = inside(root, args.path as string);
        if ((await stat(file)).isDirectory()) throw new Error(`"${String(args.path)}" is a folder; use list_files.`);
        const text = await readFile(file, 'utf8');
        return text.length > MAX_READ_CHARS
          ? `${text.slice(0, MAX_READ_CHARS)}\n[... cut at ${MAX_READ_CHARS} chars]`
          : text;
      },
    },
    {
      name: 'search_files',
      description: 'Search the text files under a folder for a literal string. Returns path:line: text for each hit.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'The text to look for (case-sensitive).' },
          path: { type: 'string', description: 'Folder to search, relative to the project root (default ".").' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      async execute(args) {
        const query = String(args.query ?? '');
        if (query === '') throw new Error('query must be a non-empty string.');
        const files: string[] = [];
        await walk(inside(root, args.path as string | undefined), files, 5_000);
        const hits: string[] = [];
        for (const file of files) {
          const text = await readFile(file, 'utf8').catch(() => '');
          if (!text.includes(query)) continue;
          text.split('\n').forEach((line, i) => {
            if (hits.length < MAX_SEARCH_HITS && line.includes(query))
              hits.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
          });
        }
        return hits.length === 0 ? `No match for "${query}".` : hits.join('\n');
      },
    },
  ];
}

/** Every file under `root` (relative paths, sorted), skipping node_modules, .git and dist. */
export async function listTree(root: string, limit = 10_000): Promise<string[]> {
  const files: string[] = [];
  await walk(resolve(root), files, limit);
  return files.map((f) => relative(resolve(root), f)).sort();
}
