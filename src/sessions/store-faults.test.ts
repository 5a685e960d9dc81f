import { appendFile, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { rejection } from '../test-support/errors.js';
import { isolatedPostgresUrl, REDIS_URL, serverProblems } from '../test-support/store-backends.js';
import { mockModel } from '../testing/mock-model.js';
import { FileSessionStore } from './file-store.js';
import { type KVClient, KVSessionStore } from './kv-store.js';
import { PostgresSessionStore } from './postgres-store.js';
import { SqliteSessionStore } from './sqlite-store.js';

const problems = await serverProblems();
const temp = (name: string) => mkdtemp(join(tmpdir(), `lousho-${name}-`));
const mode = async (path: string) => (await stat(path)).mode & 0o777;

/** Runs `fn` with the widest umask, so modes the store sets are its own doing. */
async function underOpenUmask<T>(fn: () => Promise<T>): Promise<T> {
  const before = process.umask(0);
  try {
    return await fn();
  } finally {
    process.umask(before);
  }
}

describe('FileSessionStore keeps what it holds', () => {
  it('creates its folders 0700 and its files 0600 whatever the umask, missing parent folders included', async () => {
    const dir = join(await temp('perm'), 'nested', 'sessions');
    const store = new FileSessionStore({ dir });
    await underOpenUmask(async () => {
      await store.append('s', '["x"]', 0);
      await store.acquire('s', 'me', 60_000);
    });
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(join(dir, '..'))).toBe(0o700);
    expect(await mode(join(dir, '.tmp'))).toBe(0o700);
    expect(await mode(join(dir, 's.jsonl'))).toBe(0o600);
    expect(await mode(join(dir, 's.lock'))).toBe(0o600);
  });

  it('ignores a torn last line that a crash left, and closes it on the next append so it never counts', async () => {
    const dir = await temp('torn');
    const store = new FileSessionStore({ dir });
    const v1 = await store.append('s', '["a"]', 0);
    await appendFile(join(dir, 's.jsonl'), '\x1e99:deadbeef:30\x1f["half a li');
    expect(await store.read('s')).toEqual({ entries: ['["a"]'], version: v1 });
    const v2 = await store.append('s', '["b"]', v1);
    expect(await store.read('s')).toEqual({ entries: ['["a"]', '["b"]'], version: v2 });
    expect(await readFile(join(dir, 's.jsonl'), 'utf8')).toContain('["half a li\x18\n');
  });

  it("removes the temporary files a crash left when it next opens that session, and no other session's", async () => {
    const dir = await temp('tmp');
    const store = new FileSessionStore({ dir });
    await store.append('s', '["a"]', 0);
    await writeFile(join(dir, '.tmp', 's.4242-deadbeef.tmp'), 'left by a crash');
    await writeFile(join(dir, '.tmp', 'other.4242-deadbeef.tmp'), 'in use elsewhere');
    await store.read('s');
    expect(await readdir(join(dir, '.tmp'))).toEqual(['other.4242-deadbeef.tmp']);
  });

  it('reports a directory where the session file should be with LOUSHO_STORE_INVALID and leaves it', async () => {
    const dir = await temp('isdir');
    await mkdir(join(dir, 's.jsonl', 'inside'), { recursive: true });
    const store = new FileSessionStore({ dir });
    for (const operation of [() => store.read('s'), () => store.append('s', '[]', 0), () => store.delete('s')]) {
      const error = await rejection(operation());
      expect(error.code).toBe('LOUSHO_STORE_INVALID');
      expect(error.message).toContain("Session 's'");
      expect(error.message).toContain(`FileSessionStore(${dir})`);
    }
    expect(await readdir(join(dir, 's.jsonl'))).toEqual(['inside']);
  });

  it('reports a folder it cannot create (a file in the way) with LOUSHO_STORE_FAILED naming the session', async () => {
    const parent = await temp('notdir');
    await writeFile(join(parent, 'file'), 'not a folder');
    const error = await rejection(new FileSessionStore({ dir: join(parent, 'file', 'sessions') }).append('s', '[]', 0));
    expect(error.code).toBe('LOUSHO_STORE_FAILED');
    expect(error.message).toContain("session 's'");
    expect(await readFile(join(parent, 'file'), 'utf8')).toBe('not a folder');
  });

  it('refuses an id over the length limit with LOUSHO_STORE_ID_INVALID, creating nothing', async () => {
    const dir = await temp('long');
    const store = new FileSessionStore({ dir });
    const id = 'é'.repeat(65); // 130 UTF-8 bytes: over the one limit of every store
    expect((await rejection(store.append(id, '[]', 0))).code).toBe('LOUSHO_STORE_ID_INVALID');
    expect((await rejection(store.acquire(id, 'me', 1000))).code).toBe('LOUSHO_STORE_ID_INVALID');
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports a lock file it did not write with LOUSHO_STORE_INVALID and leaves it', async () => {
    const dir = await temp('lock');
    await writeFile(join(dir, 's.lock'), 'someone else');
    const error = await rejection(new FileSessionStore({ dir }).acquire('s', 'me', 1000));
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(await readFile(join(dir, 's.lock'), 'utf8')).toBe('someone else');
  });

  it('reports a log line it did not write with LOUSHO_STORE_INVALID when the session opens, and leaves it', async () => {
    const dir = await temp('garbage');
    const store = new FileSessionStore({ dir });
    const agent = createAgent({ provider: mockModel(['hi']) });
    await agent.session({ id: 's', store }).send('hello');
    await appendFile(join(dir, 's.jsonl'), '{"messages": [{"role": "robot"}]}\n');
    const before = await readFile(join(dir, 's.jsonl'), 'utf8');
    const error = await rejection(agent.session({ id: 's', store }).load());
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(error.message).toContain('left as it is');
    expect(await readFile(join(dir, 's.jsonl'), 'utf8')).toBe(before);
  });

  it('needs a folder', () => {
    expect(() => new FileSessionStore({ dir: '' })).toThrow(expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }));
  });
});

describe('SqliteSessionStore keeps what it holds', () => {
  it('creates its database 0600 in a new 0700 folder whatever the umask', async () => {
    const path = join(await temp('sqlite-perm'), 'db', 'sessions.db');
    await underOpenUmask(() => new SqliteSessionStore({ path }).append('s', '[]', 0));
    expect(await mode(path)).toBe(0o600);
    expect(await mode(join(path, '..'))).toBe(0o700);
  });

  it('reports a table of the same name with other columns with LOUSHO_STORE_INVALID and leaves it', async () => {
    const path = join(await temp('sqlite-schema'), 'sessions.db');
    const db = new Database(path);
    db.exec(
      "CREATE TABLE lousho_session_log (id TEXT, body TEXT); INSERT INTO lousho_session_log VALUES ('s', 'theirs')",
    );
    const error = await rejection(new SqliteSessionStore({ path }).read('s'));
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(error.message).toContain("Session 's'");
    expect(error.message).toContain('lousho_session_log');
    expect(db.prepare('SELECT * FROM lousho_session_log').all()).toEqual([{ id: 's', body: 'theirs' }]);
    db.close();
  });

  it('reports a database it cannot open with LOUSHO_STORE_FAILED naming the session and the store', async () => {
    const path = await temp('sqlite-dir'); // a directory, not a database file
    const error = await rejection(new SqliteSessionStore({ path }).read('s'));
    expect(error.code).toBe('LOUSHO_STORE_FAILED');
    expect(error.message).toContain(`SqliteSessionStore(${path})`);
  });

  it('rejects bad options with LOUSHO_CONFIG_INVALID', () => {
    expect(() => new SqliteSessionStore({ path: '' })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
  });
});

describe.skipIf(problems.redis !== undefined)('KVSessionStore (Redis) keeps what it holds', () => {
  // Lazy, with a listener: the body is collected even when skipped, and must not print an unhandled error.
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {});
  afterAll(() => redis.disconnect());

  it('reports a key of another type with LOUSHO_STORE_INVALID and leaves it', async () => {
    const prefix = `lousho-fault:${process.pid}:`;
    await redis.set(`${prefix}log:s`, 'a string, not a log');
    const store = new KVSessionStore({ client: redis, prefix });
    for (const operation of [() => store.read('s'), () => store.append('s', '[]', 0), () => store.delete('s')]) {
      expect((await rejection(operation())).code).toBe('LOUSHO_STORE_INVALID');
    }
    expect(await redis.get(`${prefix}log:s`)).toBe('a string, not a log');
    await redis.del(`${prefix}log:s`);
  });
});

describe('KVSessionStore and PostgresSessionStore faults', () => {
  it('report a server that does not answer with LOUSHO_STORE_FAILED naming the session and the store', async () => {
    const client = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {}); // the refusal is what the test expects
    const kv = await rejection(new KVSessionStore({ client }).read('s'));
    expect(kv.code).toBe('LOUSHO_STORE_FAILED');
    expect(kv.message).toContain("session 's'");
    client.disconnect();
    const store = new PostgresSessionStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const error = await rejection(store.append('s', '[]', 0));
    expect(error.code).toBe('LOUSHO_STORE_FAILED');
    expect(error.message).toContain('PostgresSessionStore(postgres://127.0.0.1:1/none)');
    await store.close();
  });

  it('reject bad options with LOUSHO_CONFIG_INVALID', () => {
    expect(() => new KVSessionStore({ client: {} as KVClient })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
    expect(() => new PostgresSessionStore({ connectionString: '' })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
  });
});

describe.skipIf(problems.postgres !== undefined)('PostgresSessionStore keeps what it holds', () => {
  it('reports a table of the same name with other columns with LOUSHO_STORE_INVALID and leaves it', async () => {
    const url = await isolatedPostgresUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      "CREATE TABLE lousho_session_log (id TEXT, body TEXT); INSERT INTO lousho_session_log VALUES ('s', 'theirs')",
    );
    const store = new PostgresSessionStore({ connectionString: url });
    const error = await rejection(store.read('s'));
    expect(error.code).toBe('LOUSHO_STORE_INVALID');
    expect(error.message).toContain('lousho_session_log');
    expect((await client.query('SELECT * FROM lousho_session_log')).rows).toEqual([{ id: 's', body: 'theirs' }]);
    await client.end();
    await store.close();
  });
});
