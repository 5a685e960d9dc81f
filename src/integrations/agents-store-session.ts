import type { AgentsItem } from '../converters/agents-items-types.js';
import { fromAgentsItems } from '../converters/from-agents-items.js';
import { toAgentsItems } from '../converters/to-agents-items.js';
import type { SessionStore } from '../sessions/store.js';
import type { AgentsSession } from './agents-session.js';

/**
 * An OpenAI Agents SDK session kept in one of our session stores (memory, file, SQLite,
 * KV/Redis, Postgres): the items are stored as our messages (each item's other fields in
 * their metadata), so `lousho inspect`, session.compact() and our agents can read them too.
 *
 * @example
 * const session = new AgentsStoreSession({ store: new FileSessionStore({ dir: './sessions' }), sessionId: 'user-42' });
 * await run(agent, 'hello', { session });
 */
export class AgentsStoreSession implements AgentsSession {
  readonly #store: SessionStore;
  readonly #id: string;

  constructor(options: { store: SessionStore; sessionId: string }) {
    this.#store = options.store;
    this.#id = options.sessionId;
  }

  async getSessionId(): Promise<string> {
    return this.#id;
  }

  async getItems(limit?: number): Promise<AgentsItem[]> {
    const items = toAgentsItems((await this.#store.load(this.#id)) ?? []);
    return limit === undefined ? items : limit <= 0 ? [] : items.slice(-limit);
  }

  async addItems(items: AgentsItem[]): Promise<void> {
    if (items.length === 0) return;
    const stored = toAgentsItems((await this.#store.load(this.#id)) ?? []);
    await this.#store.save(this.#id, fromAgentsItems([...stored, ...items]));
  }

  async popItem(): Promise<AgentsItem | undefined> {
    const items = toAgentsItems((await this.#store.load(this.#id)) ?? []);
    const last = items.pop();
    if (last !== undefined) await this.#store.save(this.#id, fromAgentsItems(items));
    return last;
  }

  async clearSession(): Promise<void> {
    await this.#store.delete(this.#id);
  }
}
