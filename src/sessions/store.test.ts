import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { type KVClient, KVSessionStore } from './kv-store.js';
import { SqliteSessionStore } from './sqlite-store.js';
import { FileSessionStore, MemorySessionStore, type SessionStore } from './store.js';

/** A real Redis for the KV store: REDIS_URL, else 127.0.0.1:6379, which .ci/run starts. */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
const redisUp = await redis.connect().then(
  () => true,
  () => false,
);
if (!redisUp)
  console.warn(
    `Skipping the KVSessionStore tests against Redis: no server answers at ${REDIS_URL} (.ci/run starts one).`,
  );
afterAll(() => {
  if (redisUp) redis.disconnect();
});

/** A key-value client over a Map, to run the KV store's logic without a server. */
function mapClient(): KVClient {
  const data = new Map<string, string>();
  return {
    get: async (key) => data.get(key) ?? null,
    set: async (key, value) => data.set(key, value),
    del: async (key) => data.delete(key),
  };
}

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
let run = 0;
const STORES: [string, () => Promise<SessionStore>][] = [
  ['MemorySessionStore', async () => new MemorySessionStore()],
  ['FileSessionStore', async () => new FileSessionStore({ dir: await mkdtemp(join(tmpdir(), 'lousho-sessions-')) })],
  [
    'SqliteSessionStore',
    async () => new SqliteSessionStore({ path: join(await mkdtemp(join(tmpdir(), 'lousho-sqlite-')), 'sessions.db') }),
  ],
  ['KVSessionStore (a Map client)', async () => new KVSessionStore({ client: mapClient() })],
  ...(redisUp
    ? ([
        [
          'KVSessionStore (Redis)',
          async () => new KVSessionStore({ client: redis, prefix: `test:${process.pid}:${run++}:` }),
        ],
      ] as [string, () => Promise<SessionStore>][])
    : []),
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

describe('stores that find something they did not write', () => {
  it('SqliteSessionStore reports LOUSHO_STORE_INVALID for a row that is not a transcript and leaves it', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lousho-sqlite-')), 'sessions.db');
    const store = new SqliteSessionStore({ path });
    await store.save('s1', transcript());
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path);
    db.prepare("UPDATE lousho_sessions SET transcript = 'not json' WHERE id = 's1'").run();
    expect((await rejection(store.load('s1'))).code).toBe('LOUSHO_STORE_INVALID');
    expect(db.prepare("SELECT transcript FROM lousho_sessions WHERE id = 's1'").get()).toEqual({
      transcript: 'not json',
    });
    db.close();
  });

  it('KVSessionStore reports LOUSHO_STORE_INVALID for a value that is not a transcript', async () => {
    const client = mapClient();
    await client.set('lousho:session:x', '{"format":"other"}');
    expect((await rejection(new KVSessionStore({ client }).load('x'))).code).toBe('LOUSHO_STORE_INVALID');
    expect(await client.get('lousho:session:x')).toBe('{"format":"other"}');
  });

  it('reject bad options with LOUSHO_CONFIG_INVALID', () => {
    expect(() => new KVSessionStore({ client: {} as KVClient })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
    expect(() => new SqliteSessionStore({ path: '' })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
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
