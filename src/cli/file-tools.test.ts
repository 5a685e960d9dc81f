/**
 * The main job's file tools on what users' folders hold: folders and files the process may not
 * read, and binary files. The tests run as root, where chmod 000 does not stop a read, so an
 * unreadable folder is made through the walk's seam: a readdir that fails with EACCES for one
 * path, as Node's does for a non-root user (`EACCES: permission denied, scandir '...'`).
 */
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTools, listTree } from './file-tools.js';

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-file-tools-'));
  await mkdir(join(dir, 'locked'));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'locked', 'inner.ts'), 'export const hidden = "needle";\n');
  await writeFile(join(dir, 'src', 'open.ts'), 'export const seen = "needle";\n');
  await writeFile(join(dir, 'index.ts'), 'export * from "./src/open.js";\n');
  return dir;
}

/** Node's error for a folder it may not list, for `path`. */
function eacces(syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EACCES: permission denied, ${syscall} '${path}'`), {
    code: 'EACCES',
    syscall,
    path,
  });
}

/** fs's readdir, failing with EACCES for the folder `locked` as it does for a non-root user. */
const lockedOut =
  (locked: string) =>
  (dir: string): Promise<Dirent[]> =>
    dir === locked ? Promise.reject(eacces('scandir', dir)) : readdir(dir, { withFileTypes: true });

const tool = (tools: ReturnType<typeof fileTools>, name: string) => {
  const found = tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return (args: Record<string, unknown>) => found.execute(args, {} as never) as Promise<string>;
};

describe('the file tools on a folder they cannot read', () => {
  it('lists the tree without the unreadable folder and says it was unreadable, instead of failing', async () => {
    const dir = await project();
    const tree = await listTree(dir, { readDir: lockedOut(join(dir, 'locked')) });
    expect(tree.files).toEqual(['index.ts', 'src/open.ts']);
    expect(tree.unreadable).toEqual(['locked/ (permission denied)']);
  });

  it('search_files searches the rest and names the unreadable folder in its result', async () => {
    const dir = await project();
    const search = tool(fileTools({ root: dir, readDir: lockedOut(join(dir, 'locked')) }), 'search_files');
    const result = await search({ query: 'needle' });
    expect(result).toContain('src/open.ts:1: export const seen = "needle";');
    expect(result).not.toContain('inner.ts');
    expect(result).toMatch(/^Unreadable, not searched: locked\/ \(permission denied\)$/m);
  });

  it('list_files and read_file answer a folder or file they may not read in one line naming it', async () => {
    const dir = await project();
    const readFile = (path: string) =>
      path.endsWith('secret.ts') ? Promise.reject(eacces('open', path)) : Promise.resolve(Buffer.from('ok\n'));
    const tools = fileTools({ root: dir, readDir: lockedOut(join(dir, 'locked')), readFile });
    await writeFile(join(dir, 'secret.ts'), 'x');
    expect(await tool(tools, 'list_files')({ path: 'locked' })).toBe('locked/ is unreadable (permission denied).');
    expect(await tool(tools, 'read_file')({ path: 'secret.ts' })).toBe('secret.ts is unreadable (permission denied).');
    // The root's own listing still shows the folder, which is there.
    expect(await tool(tools, 'list_files')({})).toBe('index.ts\nlocked/\nsecret.ts\nsrc/');
  });
});

describe('read_file on a binary file', () => {
  it('answers a 200 KB random blob with one line naming the file, its size and that it is binary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-file-tools-'));
    await writeFile(join(dir, 'blob.json'), randomBytes(204_800));
    const result = await tool(fileTools({ root: dir }), 'read_file')({ path: 'blob.json' });
    expect(result).toBe('blob.json is a binary file (204,800 bytes): its bytes are not shown.');
  });

  it('knows binary without a NUL byte by its invalid UTF-8, and reads UTF-8 text with any script as text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-file-tools-'));
    // Latin-1 bytes 0x80-0xff with no NUL: not UTF-8 at a high rate.
    await writeFile(join(dir, 'latin.dat'), Buffer.from(Array.from({ length: 4_096 }, (_, i) => 0x80 + (i % 128))));
    const text = 'const greeting = "grüß dich, こんにちは, привет";\n'.repeat(200);
    await writeFile(join(dir, 'text.ts'), text);
    const read = tool(fileTools({ root: dir }), 'read_file');
    expect(await read({ path: 'latin.dat' })).toBe(
      'latin.dat is a binary file (4,096 bytes): its bytes are not shown.',
    );
    expect(await read({ path: 'text.ts' })).toBe(text);
  });
});
