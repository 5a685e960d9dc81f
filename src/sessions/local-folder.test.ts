import { mkdtemp, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { rejection } from '../test-support/errors.js';
import { checkLocalFolder, networkFileSystem } from './local-folder.js';

describe('the file and SQLite stores keep to a local disk', () => {
  it('names the network file systems statfs(2) reports, read as signed or unsigned, and no local one', async () => {
    expect(networkFileSystem(0x6969)).toBe('NFS');
    expect(networkFileSystem(0xff534d42 | 0)).toBe('CIFS'); // a negative int32 where a driver reads f_type signed
    expect(networkFileSystem(0xfe534d42)).toBe('SMB2');
    for (const local of [0xef53 /* ext2-4 */, 0x01021994 /* tmpfs */, 0x58465342 /* xfs */, 0x9123683e /* btrfs */])
      expect(networkFileSystem(local)).toBeUndefined();
    expect(networkFileSystem(Number((await statfs(tmpdir())).type))).toBeUndefined();
  });

  it('lets a local folder be, and one that does not exist yet', async () => {
    await expect(checkLocalFolder(tmpdir(), 'FileSessionStore(x)', 'dir')).resolves.toBeUndefined();
    await expect(checkLocalFolder('/nonexistent/lousho', 'FileSessionStore(x)', 'dir')).resolves.toBeUndefined();
  });
});

describe('a store folder that statfs(2) says is on NFS', () => {
  it('is refused by FileSessionStore and SqliteSessionStore with LOUSHO_CONFIG_INVALID naming the option', async () => {
    vi.resetModules();
    vi.doMock('node:fs/promises', async (original) => ({
      ...(await original<typeof import('node:fs/promises')>()),
      statfs: async () => ({ type: 0x6969 }),
    }));
    const { FileSessionStore } = await import('./file-store.js');
    const { SqliteSessionStore } = await import('./sqlite-store.js');
    const dir = await mkdtemp(join(tmpdir(), 'lousho-nfs-'));
    const file = await rejection(new FileSessionStore({ dir }).append('s', 'x', 0));
    expect(file.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(file.message).toContain('network file system (NFS)');
    expect(file.message).toContain('new FileSessionStore({ dir })');
    const sqlite = await rejection(new SqliteSessionStore({ path: join(dir, 'db', 's.db') }).read('s'));
    expect(sqlite.code).toBe('LOUSHO_CONFIG_INVALID');
    expect(sqlite.message).toContain('new SqliteSessionStore({ path })');
    vi.doUnmock('node:fs/promises');
  });
});
