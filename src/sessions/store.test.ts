import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { FileSessionStore, MemorySessionStore, type SessionStore } from './store.js';

const transcript = (): Message[] => [
  { role: 'system', content: 'sys' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
    ],
  },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: { path: 'a.ts' } }] },
  { role: 'tool', toolCallId: 'c1', content: 'x', metadata: { pinned: true } },
];

/** The suite every store passes. */
const STORES: [string, () => Promise<SessionStore>][] = [
  ['MemorySessionStore', async () => new MemorySessionStore()],
  ['FileSessionStore', async () => new FileSessionStore({ dir: await mkdtemp(join(tmpdir(), 'lousho-sessions-')) })],
];

describe.each(STORES)('%s', (_name, make) => {
  it('loads nothing for an id it never saved', async () => {
    expect(await (await make()).load('nobody')).toBeUndefined();
  });

  it('saves and loads a transcript, images and metadata included', async () => {
    const store = await make();
    await store.save('s1', transcript());
    expect(await store.load('s1')).toEqual(transcript());
  });

  it('keeps a copy: changing the saved array or a loaded one does not reach the store', async () => {
    const store = await make();
    const messages = transcript();
    await store.save('s1', messages);
    messages.push({ role: 'user', content: 'later' });
    const loaded = (await store.load('s1')) as Message[];
    loaded.length = 0;
    expect(await store.load('s1')).toHaveLength(4);
  });

  it('replaces on save, keeps ids apart, and deletes', async () => {
    const store = await make();
    await store.save('a', transcript());
    await store.save('b/with:odd chars', [{ role: 'user', content: 'b' }]);
    await store.save('a', [{ role: 'user', content: 'a2' }]);
    expect(await store.load('a')).toEqual([{ role: 'user', content: 'a2' }]);
    expect(await store.load('b/with:odd chars')).toEqual([{ role: 'user', content: 'b' }]);
    await store.delete('a');
    await store.delete('never-saved');
    expect(await store.load('a')).toBeUndefined();
  });
});

describe('FileSessionStore', () => {
  it('reports a file it did not write with LOUSHO_STORE_INVALID and leaves it untouched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-sessions-'));
    const path = join(dir, 's1.json');
    await writeFile(path, '{"messages": [{"role": "robot"}]}');
    const error = await rejection(new FileSessionStore({ dir }).load('s1'));
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(error.message).toContain('left as it is');
    expect(await readFile(path, 'utf8')).toBe('{"messages": [{"role": "robot"}]}');
  });

  it('needs a folder', () => {
    expect(() => new FileSessionStore({ dir: '' })).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});
