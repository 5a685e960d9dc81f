import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Tool } from '../executor/tool.js';
import { binaryNote, isBinary } from './binary-content.js';

/** Folders the file tools never descend into. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'coverage']);
const MAX_READ_CHARS = 200_000;
const MAX_SEARCH_HITS = 200;

/** How the tools list a folder (fs's readdir with file types); a test passes one that fails for a path. */
export type ReadDir = (dir: string) => Promise<Dirent[]>;
/** How the tools read a file's bytes (fs's readFile). */
export type ReadBytes = (file: string) => Promise<Buffer>;

const fsReadDir: ReadDir = (dir) => readdir(dir, { withFileTypes: true });

export interface FileToolsOptions {
  /** The folder the tools may read; paths outside it are refused. */
  root: string;
  /** How a folder is listed; fs's readdir unless a test passes another. */
  readDir?: ReadDir;
  /** How a file is read; fs's readFile unless a test passes another. */
  readFile?: ReadBytes;
  /** Told of each text file read_file gives the model (its path as the tools name it, its bytes, its text). */
  onRead?: (read: { path: string; size: number; text: string }) => void;
}

function inside(root: string, path: string | undefined): string {
  const full = resolve(root, path ?? '.');
  if (full !== root && !full.startsWith(root + sep)) {
    throw new Error(`Path "${path}" is outside the folder the tools may read (${root}). Use a path relative to it.`);
  }
  return full;
}

/** Why a folder or file could not be read, in words ('permission denied'), or undefined for another error. */
function unreadableWhy(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'a symlink loop';
  if (code === 'EIO') return 'an I/O error';
  return undefined;
}

/** What `read` gives, or the line saying `name` is unreadable when it fails for such a reason (other errors are thrown). */
function orUnreadable<T>(read: Promise<T>, name: string): Promise<T | string> {
  return read.catch((error: unknown) => {
    const why = unreadableWhy(error);
    if (why === undefined) throw error;
    return `${name} is unreadable (${why}).`;
  });
}

/** What a walk found: the files, and the folders it could not read ('locked/ (permission denied)'). */
export interface Tree {
  files: string[];
  unreadable: string[];
}

/** The files under `dir`, into `found`; a folder that cannot be listed is noted, relative to `root`, and skipped. */
async function walk(root: string, dir: string, found: Tree, limit: number, readDir: ReadDir): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readDir(dir);
  } catch (error) {
    const why = unreadableWhy(error);
    if (why === undefined) throw error;
    found.unreadable.push(`${relative(root, dir) || '.'}/ (${why})`);
    return;
  }
  for (const entry of entries) {
    if (found.files.length >= limit) return;
    if (SKIPPED.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await walk(root, full, found, limit, readDir);
    else if (entry.isFile()) found.files.push(full);
  }
}

/** `path` relative to the root, as the tools name it ('src/x.ts', 'locked/' for a folder). */
const named = (root: string, full: string, folder: boolean) => `${relative(root, full) || '.'}${folder ? '/' : ''}`;

/**
 * Read-only tools over one folder: list_files, read_file and search_files. They are what
 * the main example and tests use to build real, tool-heavy transcripts. A folder or file they
 * may not read is skipped and said: list_files and read_file answer that it is unreadable,
 * search_files searches the rest and names it.
 */
export function fileTools(options: FileToolsOptions): Tool<Record<string, unknown>, string>[] {
  const root = resolve(options.root);
  const readDir = options.readDir ?? fsReadDir;
  const readBytes = options.readFile ?? ((file: string) => readFile(file));
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
        const entries = await orUnreadable(readDir(dir), named(root, dir, true));
        if (typeof entries === 'string') return entries;
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
        const read = stat(file).then((s) => {
          if (s.isDirectory()) throw new Error(`"${String(args.path)}" is a folder; use list_files.`);
          return readBytes(file);
        });
        const bytes = await orUnreadable(read, named(root, file, false));
        if (typeof bytes === 'string') return bytes;
        if (isBinary(bytes)) return binaryNote(named(root, file, false), bytes.length);
        const text = bytes.toString('utf8');
        options.onRead?.({ path: named(root, file, false), size: bytes.length, text });
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
        const found: Tree = { files: [], unreadable: [] };
        await walk(root, inside(root, args.path as string | undefined), found, 5_000, readDir);
        const hits: string[] = [];
        for (const file of found.files) {
          const bytes = await readBytes(file).catch((error: unknown) => {
            const why = unreadableWhy(error);
            if (why !== undefined) found.unreadable.push(`${named(root, file, false)} (${why})`);
            return undefined;
          });
          const text = bytes === undefined || isBinary(bytes) ? '' : bytes.toString('utf8');
          if (!text.includes(query)) continue;
          text.split('\n').forEach((line, i) => {
            if (hits.length < MAX_SEARCH_HITS && line.includes(query))
              hits.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
          });
        }
        const said = found.unreadable.length === 0 ? [] : [`Unreadable, not searched: ${found.unreadable.join(', ')}`];
        return [...(hits.length === 0 ? [`No match for "${query}".`] : hits), ...said].join('\n');
      },
    },
  ];
}

/**
 * Every file under `root` (relative paths, sorted), skipping node_modules, .git and dist, and
 * the folders it may not read, which it names in `unreadable`.
 */
export async function listTree(root: string, options: { limit?: number; readDir?: ReadDir } = {}): Promise<Tree> {
  const from = resolve(root);
  const found: Tree = { files: [], unreadable: [] };
  await walk(from, from, found, options.limit ?? 10_000, options.readDir ?? fsReadDir);
  return { files: found.files.map((f) => relative(from, f)).sort(), unreadable: found.unreadable };
}
