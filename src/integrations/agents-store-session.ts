import type { AgentsItem } from '../converters/agents-items-types.js';
import { agentsItemsToMessages, fromAgentsItems } from '../converters/from-agents-items.js';
import { toAgentsItems } from '../converters/to-agents-items.js';
import type { Message } from '../messages/types.js';
import { DEFAULT_LEASE_MS } from '../sessions/lease.js';
import type { SessionRecord } from '../sessions/records.js';
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
  /** The items of the log's transcript: the messages array they were written from, and how many of its messages. */
  #view: { messages: readonly Message[]; length: number; items: AgentsItem[] } | undefined;
  /** Messages written as items by getItems() so far: what reading costs, for tests and benchmarks. */
  converted = 0;

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

  /** Appends `records` to the log under the session's lease, as one entry. */
  async #save(records: SessionRecord[]): Promise<void> {
    await this.#log.read();
    await this.#log.acquire('store Agents SDK items', DEFAULT_LEASE_MS);
    try {
      await this.#log.append(records);
    } finally {
      await this.#log.release();
    }
  }

  /**
   * The stored items, written from the log's messages; the ones written before are kept
   * (appending messages only pushes onto the log's array), so a read costs what was added.
   */
  async #items(): Promise<AgentsItem[]> {
    await this.#log.read();
    const messages = this.#log.state.messages;
    const view = this.#view;
    if (view === undefined || view.messages !== messages || view.length > messages.length) {
      this.converted += messages.length;
      this.#view = { messages, length: messages.length, items: toAgentsItems(messages) };
    } else if (view.length < messages.length) {
      this.converted += messages.length - view.length;
      view.items.push(...toAgentsItems(messages.slice(view.length)));
      view.length = messages.length;
    }
    return (this.#view as { items: AgentsItem[] }).items;
  }

  /** The newest `limit` items (all without it), oldest first; the items are the session's: copy one before changing it. */
  async getItems(limit?: number): Promise<AgentsItem[]> {
    const items = await this.#items();
    return limit === undefined ? items.slice() : limit <= 0 ? [] : items.slice(-limit);
  }

  /** Appends the items to the log as the messages they make: one entry, whose size is that of the items. */
  async addItems(items: AgentsItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.#save([{ type: 'messages', messages: agentsItemsToMessages(items) }]);
  }

  /** Removes the newest item; the log has no record that removes one, so the transcript is written again. */
  async popItem(): Promise<AgentsItem | undefined> {
    const items = (await this.#items()).slice();
    const last = items.pop();
    if (last !== undefined) await this.#save([{ type: 'rewrite', messages: fromAgentsItems(items) }]);
    return last;
  }

  /**
   * Replaces the newest `pop` items with `items` in one write: popItem() writes the whole
   * transcript again for each item it removes, so a compaction stored as pops and an add
   * cost the session's size times the items popped (37 s for one prune of a 4,000-item
   * session). compactingSession() stores its compactions through this.
   */
  async replaceNewestItems(pop: number, items: AgentsItem[]): Promise<void> {
    if (pop <= 0) return this.addItems(items);
    const stored = await this.#items();
    const kept = stored.slice(0, Math.max(0, stored.length - pop));
    await this.#save([{ type: 'rewrite', messages: fromAgentsItems([...kept, ...items]) }]);
  }

  async clearSession(): Promise<void> {
    await this.#log.store.delete(this.#id);
    this.#log.reset();
    this.#view = undefined;
  }
}
