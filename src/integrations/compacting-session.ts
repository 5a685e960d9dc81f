import { type CompactMessagesResult, compactMessages } from '../compaction/compact-messages.js';
import { createCompactionHook } from '../compaction/compaction-hook.js';
import type { CompactionStrategy } from '../compaction/types.js';
import type { AgentsItem } from '../converters/agents-items-types.js';
import { agentsItemsToMessages, fromAgentsItems } from '../converters/from-agents-items.js';
import { toAgentsItems, writeAgentsItems } from '../converters/to-agents-items.js';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { type AgentsCompactionUsage, type AgentsSession, forwardOptionalMethods } from './agents-session.js';
import { ConversationCompaction, type FrameworkCompactionOptions } from './conversation-compaction.js';
import { sameValue } from './same-value.js';
import { StoredTail } from './stored-tail.js';

/** Options of {@link compactingSession}: the session to wrap, and the compaction hook's options. */
export interface CompactingSessionOptions<I extends AgentsItem = AgentsItem> extends FrameworkCompactionOptions {
  /** The session to wrap: one of the Agents SDK's, or ours (AgentsStoreSession). */
  session: AgentsSession<I>;
}

/**
 * The wrapped session's way of replacing its newest items in one write, when it has one
 * (our AgentsStoreSession does): else a compaction is stored as pops and an add, and each
 * popItem() of a session that has no record for removing an item writes it all again.
 */
function oneWriteReplace(session: object): ((pop: number, items: AgentsItem[]) => Promise<void>) | undefined {
  const own = (session as { replaceNewestItems?: unknown }).replaceNewestItems;
  return typeof own === 'function' ? (pop, items) => own.call(session, pop, items) : undefined;
}

/**
 * An OpenAI Agents SDK session that compacts the history it keeps with our strategies. It
 * hands every call to the session it wraps; after each turn the runner calls
 * runCompaction(), and when the stored history is above the threshold (or `force` is set)
 * it is rewritten compacted: old tool results pruned, old turns summarized, pinned and
 * system messages kept, every call with its result. compact() does it now, whatever the size.
 */
export class CompactingSession<I extends AgentsItem = AgentsItem> implements AgentsSession<I> {
  readonly #inner: AgentsSession<I>;
  readonly #options: CompactingSessionOptions<I>;
  readonly #conversation: ConversationCompaction<AgentsItem>;
  #reported = 0;
  /** The items stored through this session since the last runCompaction(); undefined: read the session again. */
  #added: AgentsItem[] | undefined;
  /** What the session holds, as our transcript's messages map to stored items (see StoredTail). */
  readonly #stored = new StoredTail();
  /** Items written by the last runCompaction() and compact() (what they cost), for tests and benchmarks. */
  written = 0;
  // Present only when the wrapped session has them (see forwardOptionalMethods), calling its own.
  declare readonly prepareHistoryItemForModelInput?: (item: I) => I;
  declare readonly prepareHistoryItemsForPersistenceComparison?: (items: I[]) => I[];
  declare readonly preserveReasoningItemIdsForPersistence?: () => boolean;
  declare readonly replaceHistoryWithCompaction?: (items: I[]) => Promise<void>;

  constructor(options: CompactingSessionOptions<I>) {
    const { session, onEvent, model: _model, ...hookOptions } = options;
    const methods = ['getSessionId', 'getItems', 'addItems', 'popItem', 'clearSession'] as const;
    if (typeof session !== 'object' || session === null || methods.some((m) => typeof session[m] !== 'function')) {
      throw configError(
        `compactingSession({ session }): session must be an OpenAI Agents SDK session (${methods.join(', ')}), such as new MemorySession() or new AgentsStoreSession({ store, sessionId }).`,
        { option: 'session' },
      );
    }
    this.#inner = session;
    this.#options = options;
    forwardOptionalMethods(this, session, () => {
      this.#added = undefined;
    });
    this.#conversation = new ConversationCompaction<AgentsItem>(
      createCompactionHook(hookOptions),
      'OpenAI Agents SDK',
      onEvent,
      hookOptions.contextWindow,
    );
  }

  getSessionId(): Promise<string> {
    return this.#inner.getSessionId();
  }

  getItems(limit?: number): Promise<I[]> {
    return this.#inner.getItems(limit);
  }

  async addItems(items: I[]): Promise<void> {
    await this.#inner.addItems(items);
    this.#added?.push(...items);
  }

  popItem(): Promise<I | undefined> {
    this.#added = undefined;
    return this.#inner.popItem();
  }

  clearSession(): Promise<void> {
    this.#added = undefined;
    return this.#inner.clearSession();
  }

  /**
   * Called by the Agents SDK's runner after it stored a turn: compacts the history when it
   * is above the threshold, or whatever its size with `force: true`. Resolves to the usage
   * of the summarizer's calls, for the run's totals, or null when there were none.
   */
  async runCompaction(args?: { force?: boolean }): Promise<{
    /** The usage of the summarizer's calls since the last report. */
    usage: AgentsCompactionUsage;
  } | null> {
    if (args?.force === true) {
      await this.compact();
      return null;
    }
    const model = { model: this.#options.model ?? '' };
    const added = await this.#addedSinceLastTurn();
    // The ends of the new messages among the items read: the map of the session's items grows by them.
    const fresh: number[] = [];
    const convert = (items: readonly AgentsItem[]) => agentsItemsToMessages(items, fresh);
    const { messages, changed, from } =
      added === undefined
        ? await this.#conversation.compact(await this.#inner.getItems(), convert, model)
        : await this.#conversation.compactAdded(added, convert, model);
    this.#added = [];
    this.written = 0;
    if (!changed) this.#stored.grew(messages, this.#conversation.length, fresh);
    else {
      const plan = this.#stored.plan(messages, from, this.#conversation.length);
      if (plan === undefined) await this.#replaceAll(messages);
      else await this.#replaceTail(plan.keep, plan.pop, plan.tail);
    }
    return this.#usage();
  }

  /**
   * The items stored through this session since the last turn, when the wrapped session
   * still ends with them after the newest item this one saw (else something else wrote to
   * it: undefined, read it all). The check reads only those items.
   */
  async #addedSinceLastTurn(): Promise<AgentsItem[] | undefined> {
    const added = this.#added;
    const last = this.#conversation.last;
    if (added === undefined || last === undefined) return undefined;
    const expected = [last, ...added];
    const got = await this.#inner.getItems(expected.length);
    const same = got.length === expected.length && got.every((item, i) => sameValue(item, expected[i]));
    return same ? added : undefined;
  }

  /** Replaces the last `pop` stored items with `tail`; puts them back if writing `tail` fails. */
  async #replaceTail(keep: number, pop: number, tail: AgentsItem[]): Promise<void> {
    const replace = oneWriteReplace(this.#inner);
    if (replace !== undefined) await replace(pop, tail);
    else await this.#popAndAdd(pop, tail);
    this.written = tail.length;
    this.#conversation.settle(keep, tail);
  }

  /** Pops `pop` items and adds `tail`; puts the popped ones back if adding fails. */
  async #popAndAdd(pop: number, tail: AgentsItem[]): Promise<void> {
    const popped: I[] = [];
    for (let i = 0; i < pop; i++) {
      const item = await this.#inner.popItem();
      if (item !== undefined) popped.unshift(item);
    }
    try {
      await this.#inner.addItems(tail as I[]);
    } catch (error) {
      await this.#inner.addItems(popped);
      throw error;
    }
  }

  /** Rewrites the whole stored history as `messages` (after a compaction of its oldest part). */
  async #replaceAll(messages: readonly Message[]): Promise<void> {
    const ends: number[] = [];
    const next = writeAgentsItems(messages, ends);
    const old = await this.#inner.getItems();
    this.#conversation.settle(0, await this.#replace(old, next));
    this.#stored.reset(ends);
    this.written = next.length;
  }

  /** Compacts the stored history now, whatever its size (options.strategy, else the session's). */
  async compact(
    options: { strategy?: CompactionStrategy; protectedTokens?: number } = {},
  ): Promise<CompactMessagesResult> {
    const items = await this.#inner.getItems();
    const { strategy, protectedTokens, contextWindow, thresholdPercent, model } = this.#options;
    const result = await compactMessages(fromAgentsItems(items), {
      ...(strategy === undefined ? {} : { strategy }),
      ...(protectedTokens === undefined ? {} : { protectedTokens }),
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(thresholdPercent === undefined ? {} : { thresholdPercent }),
      ...(model === undefined ? {} : { model }),
      ...options,
    });
    if (result.tokensAfter !== result.tokensBefore || result.summary !== undefined) {
      // What runCompaction() keeps no longer describes the session: it reads it again next time.
      await this.#replace(items, toAgentsItems(result.messages));
      this.#added = undefined;
      this.#stored.reset();
      this.written = result.messages.length;
    }
    return result;
  }

  /** Rewrites the wrapped session's history; puts the old one back if writing the new one fails. */
  async #replace(old: AgentsItem[], next: AgentsItem[]): Promise<AgentsItem[]> {
    // The converters write each item back with the fields it came with: the wrapped session's own item type.
    const replace = oneWriteReplace(this.#inner);
    if (replace !== undefined) {
      await replace(old.length, next); // one entry: nothing is lost if it fails
      return next;
    }
    await this.#inner.clearSession();
    try {
      await this.#inner.addItems(next as I[]);
    } catch (error) {
      await this.#inner.addItems(old as I[]);
      throw error;
    }
    return next;
  }

  #usage(): { usage: AgentsCompactionUsage } | null {
    const calls = this.#conversation.usage?.modelCalls ?? [];
    const fresh = calls.slice(this.#reported);
    this.#reported = calls.length;
    if (fresh.length === 0) return null;
    const inputTokens = fresh.reduce((n, c) => n + (c.usage.inputTokens ?? 0), 0);
    const outputTokens = fresh.reduce((n, c) => n + (c.usage.outputTokens ?? 0), 0);
    return {
      usage: {
        inputTokens,
        outputTokens,
        totalTokens: inputTokens + outputTokens,
        inputTokensDetails: {},
        outputTokensDetails: {},
      },
    };
  }
}

/**
 * Wraps an OpenAI Agents SDK session (theirs, or ours through AgentsStoreSession) so that
 * the history it keeps is compacted with our strategies after each turn.
 *
 * @example
 * const session = compactingSession({
 *   session: new MemorySession(),
 *   model: 'gpt-4o-mini',
 *   strategy: twoPhaseStrategy({ model: 'openai/gpt-4o-mini' }),
 * });
 * await run(agent, 'Audit the repository.', { session });
 */
export function compactingSession<I extends AgentsItem = AgentsItem>(
  options: CompactingSessionOptions<I>,
): CompactingSession<I> {
  return new CompactingSession<I>(options);
}
