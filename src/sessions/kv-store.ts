import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';
import type {
  AppendOptions,
  LeaseState,
  RecordedLease,
  SessionLogRead,
  SessionLogTail,
  SessionStore,
  StoredSession,
} from './store.js';
import { checkId, conflict, guarded, leaseLost, NotWrittenHere } from './store-errors.js';

/**
 * A Redis client that runs Lua scripts, in ioredis's form `eval(script, numKeys, ...keysAndArgs)`.
 * An ioredis client fits as it is; wrap a node-redis client as
 * `{ eval: (script, n, ...a) => client.eval(script, { keys: a.slice(0, n).map(String), arguments: a.slice(n).map(String) }) }`.
 * Every read and write of the store is one script, so each is atomic on the server.
 */
export interface KVClient {
  /** Runs a Lua script on the server with `numKeys` keys first in `keysAndArgs`, then its arguments. */
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

/** Fails the script unless KEYS[1] is a list or absent (another program's key is left alone). */
const LIST_ONLY =
  "local kind = redis.call('TYPE', KEYS[1]).ok if kind ~= 'list' and kind ~= 'none' then return redis.error_reply('LOUSHO_NOT_OURS ' .. kind) end ";

const READ = `${LIST_ONLY}return redis.call('LRANGE', KEYS[1], 0, -1)`;
/**
 * KEYS: the log, its snapshot mark (the index of its newest snapshot entry), its lease. ARGV: version,
 * entry, '1' to mark it, the holder whose lease fences the append ('' for none).
 */
const APPEND = `${LIST_ONLY}local n = redis.call('LLEN', KEYS[1]) if n ~= tonumber(ARGV[1]) then return {0, n} end
if ARGV[4] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[4] then return {2, n} end
if ARGV[3] == '1' then redis.call('SET', KEYS[2], n) end
return {1, redis.call('RPUSH', KEYS[1], ARGV[2])}`;
/** The log from its marked snapshot entry on, its length and where that is, in one step. */
const READ_LATEST = `${LIST_ONLY}local n = redis.call('LLEN', KEYS[1]) local from = tonumber(redis.call('GET', KEYS[2])) or 0
if from >= n then from = 0 end
return {from, n, redis.call('LRANGE', KEYS[1], from, -1)}`;
/** KEYS: the log. ARGV: a version, the entry that brought the log to it. The entries after it, when that entry is still there. */
const READ_AFTER = `${LIST_ONLY}local n = redis.call('LLEN', KEYS[1]) local v = tonumber(ARGV[1])
if v < 1 or v > n or redis.call('LINDEX', KEYS[1], v - 1) ~= ARGV[2] then return {0, n} end
return {1, n, redis.call('LRANGE', KEYS[1], v, -1)}`;
const DELETE = `${LIST_ONLY}redis.call('DEL', KEYS[2]) return redis.call('DEL', KEYS[1])`;
const ACQUIRE = `local cur = redis.call('GET', KEYS[1])
if cur == false or cur == ARGV[1] or (ARGV[3] ~= '' and cur == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return {1, ARGV[1], tonumber(ARGV[2])}
end
return {0, cur, redis.call('PTTL', KEYS[1])}`;
/** One SCAN step over the log keys, each with its lease's holder ('' for none) and time to live. */
const LIST = `local r = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', 500)
local out = {r[1]}
for _, key in ipairs(r[2]) do
  local id = string.sub(key, #ARGV[3] + 1)
  local lease = ARGV[4] .. id
  out[#out + 1] = id
  out[#out + 1] = redis.call('GET', lease) or ''
  out[#out + 1] = redis.call('PTTL', lease)
end
return out`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** The lease's holder ('' for none) and the ms it has left, in one step. */
const READ_LEASE = `return {redis.call('GET', KEYS[1]) or '', redis.call('PTTL', KEYS[1])}`;

/** Redis's answer to a key of another type, or our script's; typed as LOUSHO_STORE_INVALID. */
function notOurs(error: unknown): unknown {
  const message = (error as Error)?.message ?? '';
  if (/LOUSHO_NOT_OURS|WRONGTYPE/.test(message)) {
    return new NotWrittenHere(
      `its key holds a value of another type (${message.replace(/^.*?(LOUSHO_NOT_OURS )?/, '')})`,
    );
  }
  return error;
}

/**
 * Keeps each session in Redis: its log as a list (`<prefix>log:<id>`, one element per save,
 * appended by a script that checks the list's length, which is the version), the index of its
 * newest snapshot entry (`<prefix>snap:<id>`, set by that script) and its lease as
 * a key set with `SET NX PX` semantics (`<prefix>lease:<id>`, holding the holder's id, deleted
 * only by its holder; it expires by the Redis server's clock). The prefix is 'lousho:session:' by default. A key of another type is
 * reported with LOUSHO_STORE_INVALID and left as it is.
 *
 * @example
 * new KVSessionStore({ client: new Redis(process.env.REDIS_URL) });
 */
export class KVSessionStore implements SessionStore {
  readonly #client: KVClient;
  /** What every key of the store starts with ('lousho:session:' by default). */
  readonly prefix: string;
  readonly description: string;

  constructor(options: { client: KVClient; prefix?: string }) {
    checkOptions<Record<string, unknown>>(options, 'new KVSessionStore()', ['client', 'prefix']);
    const client = options?.client;
    if (typeof client?.eval !== 'function') {
      throw configError(
        'KVSessionStore needs a Redis client with eval(script, numKeys, ...args), such as an ioredis client ' +
          '(wrap a node-redis client as the KVClient documentation shows).',
      );
    }
    this.#client = client;
    // A client that emits 'error' with nobody listening would end the process when the connection
    // drops (node-redis does); the store's commands reject with LOUSHO_STORE_FAILED instead.
    const emitter = client as Partial<{ on(e: string, l: () => void): void; listenerCount(e: string): number }>;
    if (typeof emitter.on === 'function' && emitter.listenerCount?.('error') === 0) emitter.on('error', () => {});
    this.prefix = options.prefix ?? 'lousho:session:';
    this.description = `KVSessionStore(${this.prefix})`;
  }

  #run(id: string, action: string, script: string, keys: string[], ...args: (string | number)[]): Promise<unknown> {
    checkId(this, id);
    return guarded(this, id, action, () =>
      this.#client.eval(script, keys.length, ...keys, ...args).catch((error: unknown) => {
        throw notOurs(error);
      }),
    );
  }

  /** The session's log key and snapshot-mark key. */
  #logKeys(id: string): string[] {
    return [`${this.prefix}log:${id}`, `${this.prefix}snap:${id}`];
  }

  async read(id: string): Promise<SessionLogRead> {
    const entries = (await this.#run(id, 'read', READ, [`${this.prefix}log:${id}`])) as unknown[];
    return { entries: entries.map(String), version: entries.length };
  }

  async readLatest(id: string): Promise<SessionLogTail> {
    const [from, length, entries] = (await this.#run(id, 'read', READ_LATEST, this.#logKeys(id))) as [
      number,
      number,
      unknown[],
    ];
    return { entries: entries.map(String), version: Number(length), fromSnapshot: Number(from) > 0 };
  }

  async readAfter(id: string, version: number, last: string): Promise<SessionLogRead | undefined> {
    const [found, length, entries] = (await this.#run(
      id,
      'read',
      READ_AFTER,
      [`${this.prefix}log:${id}`],
      version,
      last,
    )) as [number, number, unknown[] | undefined];
    return found === 1 ? { entries: (entries ?? []).map(String), version: Number(length) } : undefined;
  }

  async append(id: string, entry: string, expectedVersion: number, options?: AppendOptions): Promise<number> {
    const mark = options?.snapshot === true ? '1' : '';
    const holder = options?.holder ?? '';
    const keys = [...this.#logKeys(id), `${this.prefix}lease:${id}`];
    const [ok, length] = (await this.#run(id, 'write', APPEND, keys, expectedVersion, entry, mark, holder)) as [
      number,
      number,
    ];
    if (ok === 2) throw leaseLost(this, id, holder);
    if (ok !== 1) throw conflict(this, id, expectedVersion, length);
    return length;
  }

  async delete(id: string): Promise<void> {
    await this.#run(id, 'delete', DELETE, this.#logKeys(id));
  }

  async list(): Promise<StoredSession[]> {
    const logs = `${this.prefix}log:`;
    const pattern = `${logs.replace(/[*?[\]\\]/g, '\\$&')}*`;
    const sessions = new Map<string, StoredSession>(); // SCAN may name a key twice
    let cursor = '0';
    do {
      const step = (await guarded(this, '*', 'list', () =>
        this.#client.eval(LIST, 0, cursor, pattern, logs, `${this.prefix}lease:`),
      )) as unknown[];
      cursor = String(step[0]);
      for (let i = 1; i + 2 < step.length; i += 3) {
        const holder = String(step[i + 1]);
        const ttl = Number(step[i + 2]);
        const id = String(step[i]);
        sessions.set(id, {
          id,
          holder: holder === '' ? undefined : holder,
          expiresAt: holder === '' ? undefined : Date.now() + Math.max(0, ttl),
        });
      }
    } while (cursor !== '0');
    return [...sessions.values()];
  }

  async acquire(id: string, holder: string, ttlMs: number, takeOver?: string): Promise<LeaseState> {
    const key = `${this.prefix}lease:${id}`;
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const [ok, current, pttl] = (await this.#run(id, 'lease', ACQUIRE, [key], holder, ttl, takeOver ?? '')) as [
      number,
      string,
      number,
    ];
    return { acquired: ok === 1, holder: String(current), expiresAt: Date.now() + Math.max(0, Number(pttl)) };
  }

  async renew(id: string, holder: string, ttlMs: number): Promise<boolean> {
    return (await this.acquire(id, holder, ttlMs)).acquired;
  }

  async release(id: string, holder: string): Promise<void> {
    await this.#run(id, 'lease', RELEASE, [`${this.prefix}lease:${id}`], holder);
  }

  async readLease(id: string): Promise<RecordedLease | undefined> {
    const [holder, ttl] = (await this.#run(id, 'lease', READ_LEASE, [`${this.prefix}lease:${id}`])) as [string, number];
    return holder === '' ? undefined : { holder: String(holder), remainingMs: Number(ttl) };
  }
}
