import type { AgentsItem } from '../converters/agents-items-types.js';
import { fromAgentsItems } from '../converters/from-agents-items.js';
import { toAgentsItems } from '../converters/to-agents-items.js';
import type { Message } from '../messages/types.js';
import { DEFAULT_LEASE_MS } from '../sessions/lease.js';
import { SessionLog } from '../sessions/session-log.js';
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
  readonly #log: SessionLog;
  readonly #id: string;

  constructor(options: { store: SessionStore; sessionId: string }) {
    this.#id = options.sessionId;
    this.#log = new SessionLog(options.store, options.sessionId, () => '');
  }

  async getSessionId(): Promise<string> {
    return this.#id;
  }

  /** The session's transcript as our messages (what session.compact() and `lousho inspect` read). */
  async messages(): Promise<Message[]> {
    await this.#log.read();
    return [...this.#log.state.messages];
  }

  /** Rewrites the stored transcript, under the session's lease, as one log entry. */
  async #save(messages: Message[]): Promise<void> {
    await this.#log.read();
    await this.#log.acquire('store Agents SDK items', DEFAULT_LEASE_MS);
    try {
      await this.#log.append([{ type: 'rewrite', messages }]);
    } finally {
      await this.#log.release();
    }
  }

  async getItems(limit?: number): Promise<AgentsItem[]> {
    const items = toAgentsItems(await this.messages());
    return limit === undefined ? items : limit <= 0 ? [] : items.slice(-limit);
  }

  async addItems(items: AgentsItem[]): Promise<void> {
    if (items.length === 0) return;
    const stored = toAgentsItems(await this.messages());
    await this.#save(fromAgentsItems([...stored, ...items]));
  }

  async popItem(): Promise<AgentsItem | undefined> {
    const items = toAgentsItems(await this.messages());
    const last = items.pop();
    if (last !== undefined) await this.#save(fromAgentsItems(items));
    return last;
  }

  async clearSession(): Promise<void> {
    await this.#log.store.delete(this.#id);
    this.#log.reset();
  }
}
