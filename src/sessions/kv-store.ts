import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { parseSession, serializeSession } from './serialize.js';
import { invalidStore, type SessionStore } from './store.js';

/**
 * A key-value client with string values: ioredis and node-redis clients fit as they are;
 * wrap others (Cloudflare KV's put/delete, Upstash, ...) in three functions.
 */
export interface KVClient {
  get(key: string): Promise<string | null | undefined>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/**
 * Keeps each transcript under one key of a key-value store such as Redis
 * (`<prefix><id>`, prefix 'lousho:session:' by default). A value that is not a transcript
 * this library wrote is reported with LOUSHO_STORE_INVALID and left as it is.
 *
 * @example
 * new KVSessionStore({ client: new Redis(process.env.REDIS_URL) });
 */
export class KVSessionStore implements SessionStore {
  readonly #client: KVClient;
  readonly prefix: string;

  constructor(options: { client: KVClient; prefix?: string }) {
    const client = options?.client;
    if (typeof client?.get !== 'function' || typeof client.set !== 'function' || typeof client.del !== 'function') {
      throw configError(
        'KVSessionStore needs a client with get(key), set(key, value) and del(key), such as an ioredis or node-redis client.',
      );
    }
    this.#client = client;
    this.prefix = options.prefix ?? 'lousho:session:';
  }

  async load(id: string): Promise<Message[] | undefined> {
    const text = await this.#client.get(this.prefix + id);
    if (text === null || text === undefined) return undefined;
    try {
      return parseSession(text);
    } catch (cause) {
      throw invalidStore(`The value of key '${this.prefix}${id}'`, id, cause);
    }
  }

  async save(id: string, messages: readonly Message[]): Promise<void> {
    await this.#client.set(this.prefix + id, serializeSession(messages));
  }

  async delete(id: string): Promise<void> {
    await this.#client.del(this.prefix + id);
  }
}
