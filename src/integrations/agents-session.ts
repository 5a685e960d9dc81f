import type { AgentsItem } from '../converters/agents-items-types.js';

/**
 * The session interface of the OpenAI Agents SDK (`Session` of @openai/agents-core), as a
 * structural type: any of its sessions (MemorySession, OpenAIConversationsSession, ...) fits.
 */
export interface AgentsSession<I extends AgentsItem = AgentsItem> {
  /** The session's id. */
  getSessionId(): Promise<string>;
  /** The most recent `limit` items (all without it), oldest first. */
  getItems(limit?: number): Promise<I[]>;
  /** Appends items to the history, in order. */
  addItems(items: I[]): Promise<void>;
  /** Removes the newest item and resolves to it (undefined when the history is empty). */
  popItem(): Promise<I | undefined>;
  /** Deletes the whole history. */
  clearSession(): Promise<void>;
  /** Optional in the SDK: rewrites a stored item before it is sent to the model. */
  prepareHistoryItemForModelInput?(item: I): I;
  /** Optional in the SDK: normalizes history before the runner compares stored and expected items. */
  prepareHistoryItemsForPersistenceComparison?(items: I[]): I[];
  /** Optional in the SDK: whether reasoning item ids are kept when output is stored. */
  preserveReasoningItemIdsForPersistence?(): boolean;
  /** Optional in the SDK: replaces the history with a compaction marker and what follows it. */
  replaceHistoryWithCompaction?(items: I[]): Promise<void>;
}

/** The SDK's optional Session methods (and capabilities) a wrapping session hands to the session it wraps. */
export const OPTIONAL_SESSION_METHODS = [
  'prepareHistoryItemForModelInput',
  'prepareHistoryItemsForPersistenceComparison',
  'preserveReasoningItemIdsForPersistence',
  'replaceHistoryWithCompaction',
  'applyHistoryMutations',
  'applyHistoryTransaction',
] as const;

/** The optional Session methods that change the stored history. */
const CHANGING_METHODS: ReadonlySet<string> = new Set([
  'replaceHistoryWithCompaction',
  'applyHistoryMutations',
  'applyHistoryTransaction',
]);

/**
 * Gives `wrapper` each optional Session method that `inner` has, calling `inner`'s, so the
 * SDK's runner sees the same capabilities through the wrapper (a method the inner session
 * lacks stays absent, and the runner takes its fallback). `changed` is called before each
 * call of one that changes the stored history.
 */
export function forwardOptionalMethods(wrapper: object, inner: object, changed?: () => void): void {
  for (const name of OPTIONAL_SESSION_METHODS) {
    const method = (inner as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    const changes = CHANGING_METHODS.has(name);
    Object.defineProperty(wrapper, name, {
      value: (...args: unknown[]) => {
        if (changes) changed?.();
        return (method as (...a: unknown[]) => unknown).apply(inner, args);
      },
      configurable: true,
      writable: true,
    });
  }
}

/** The usage a session's runCompaction() reports to the Agents SDK's runner (its RequestUsage fields). */
export interface AgentsCompactionUsage {
  /** Prompt tokens of the summarizer's calls since the last report (an unreported count adds 0). */
  inputTokens: number;
  /** Reply tokens of those calls. */
  outputTokens: number;
  /** inputTokens plus outputTokens. */
  totalTokens: number;
  /** Breakdown of inputTokens the SDK's RequestUsage has room for; always empty here. */
  inputTokensDetails: Record<string, number>;
  /** Breakdown of outputTokens the SDK's RequestUsage has room for; always empty here. */
  outputTokensDetails: Record<string, number>;
}
