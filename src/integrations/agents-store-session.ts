import type { AgentsItem } from '../converters/agents-items-types.js';
import { agentsItemsToMessages } from '../converters/from-agents-items.js';
import { writeAgentsItems } from '../converters/to-agents-items.js';
import type { Message } from '../messages/types.js';
import { DEFAULT_LEASE_MS } from '../sessions/lease.js';
import type { SessionRecord } from '../sessions/records.js';
import { SessionLog } from '../sessions/session-log.js';
import type { SessionStore } from '../sessions/store.js';
import type { AgentsSession } from './agents-session.js';

/**
 * The items of a log's transcript: the messages array they were written from, how many of its
 * messages, and where each message's items end in `items` (a message is one item or more).
 */
interface View {
  messages: readonly Message[];
  length: number;
  items: AgentsItem[];
  ends: number[];
}

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
  /** The items of the log's transcript (see View). */
  #view: View | undefined;
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

  /** Runs `write` under the session's lease, on the log as it is now (nobody else writes meanwhile). */
  async #locked<T>(write: () => Promise<T>): Promise<T> {
    await this.#log.read();
    await this.#log.acquire('store Agents SDK items', DEFAULT_LEASE_MS);
    try {
      return await write();
    } finally {
      await this.#log.release();
    }
  }

  /**
   * The stored items, written from the log's messages; the ones written before are kept
   * (appending messages only pushes onto the log's array, and this session's own tails
   * update the view as they write), so a read costs what was added.
   */
  async #items(): Promise<View> {
    await this.#log.read();
    const messages = this.#log.state.messages;
    const view = this.#view;
    if (view === undefined || view.messages !== messages || view.length > messages.length) {
      this.converted += messages.length;
      const ends: number[] = [];
      this.#view = { messages, length: messages.length, items: writeAgentsItems(messages, ends), ends };
    } else if (view.length < messages.length) {
      this.#extend(view, messages, view.length);
    }
    return this.#view as View;
  }

  /** Writes the messages of `messages` from `from` on as items at the end of the view. */
  #extend(view: View, messages: Message[], from: number): void {
    this.converted += messages.length - from;
    const ends: number[] = [];
    const start = view.items.length;
    for (const item of writeAgentsItems(messages.slice(from), ends)) view.items.push(item);
    for (const end of ends) view.ends.push(start + end);
    view.messages = messages;
    view.length = messages.length;
  }

  /** The newest `limit` items (all without it), oldest first; the items are the session's: copy one before changing it. */
  async getItems(limit?: number): Promise<AgentsItem[]> {
    const { items } = await this.#items();
    return limit === undefined ? items.slice() : limit <= 0 ? [] : items.slice(-limit);
  }

  /** Appends the items to the log as the messages they make: one entry, whose size is that of the items. */
  async addItems(items: AgentsItem[]): Promise<void> {
    if (items.length === 0) return;
    const records: SessionRecord[] = [{ type: 'messages', messages: agentsItemsToMessages(items) }];
    await this.#locked(() => this.#log.append(records));
  }

  /** Removes the newest item: one `tail` entry, the size of the message it ended. */
  async popItem(): Promise<AgentsItem | undefined> {
    return (await this.#replace(1, []))[0];
  }

  /**
   * Replaces the newest `pop` items with `items` in one write, whose size is that of the
   * messages they change, not the session's: popItem() for each item and a rewrite of the
   * transcript cost the session's size (every prune rewrote the whole session; in lean mode,
   * every turn). compactingSession() stores its
   * compactions through this.
   */
  async replaceNewestItems(pop: number, items: AgentsItem[]): Promise<void> {
    if (pop <= 0) return this.addItems(items);
    await this.#replace(pop, items);
  }

  /**
   * Saves a `tail` record that keeps the messages whose items all stay and writes the kept
   * items of the message the cut falls in (an assistant message with several tool calls
   * is several items) again, with `items` after them; returns the items removed. The view
   * is cut and extended the same way, so its cost is the items changed.
   */
  #replace(pop: number, items: AgentsItem[]): Promise<AgentsItem[]> {
    return this.#locked(async () => {
      const view = await this.#items();
      const kept = Math.max(0, view.items.length - pop);
      if (kept === view.items.length && items.length === 0) return [];
      let keep = view.length;
      while (keep > 0 && (view.ends[keep - 1] as number) > kept) keep--;
      const start = keep === 0 ? 0 : (view.ends[keep - 1] as number);
      const removed = view.items.slice(kept);
      const messages = agentsItemsToMessages([...view.items.slice(start, kept), ...items]);
      await this.#log.append([{ type: 'tail', keep, messages }]);
      view.items.length = start;
      view.ends.length = keep;
      view.length = keep;
      this.#extend(view, this.#log.state.messages, keep);
      return removed;
    });
  }

  async clearSession(): Promise<void> {
    await this.#log.store.delete(this.#id);
    this.#log.reset();
    this.#view = undefined;
  }
}
