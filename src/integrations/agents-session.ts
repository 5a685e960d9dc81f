import type { AgentsItem } from '../converters/agents-items-types.js';

/**
 * The session interface of the OpenAI Agents SDK (`Session` of @openai/agents-core), as a
 * structural type: any of its sessions (MemorySession, OpenAIConversationsSession, ...) fits.
 */
export interface AgentsSession<I extends AgentsItem = AgentsItem> {
  getSessionId(): Promise<string>;
  /** The most recent `limit` items (all without it), oldest first. */
  getItems(limit?: number): Promise<I[]>;
  addItems(items: I[]): Promise<void>;
  popItem(): Promise<I | undefined>;
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

/**
 * Gives `wrapper` each optional Session method that `inner` has, calling `inner`'s, so the
 * SDK's runner sees the same capabilities through the wrapper (a method the inner session
 * lacks stays absent, and the runner takes its fallback).
 */
export function forwardOptionalMethods(wrapper: object, inner: object): void {
  for (const name of OPTIONAL_SESSION_METHODS) {
    const method = (inner as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    Object.defineProperty(wrapper, name, {
      value: (...args: unknown[]) => (method as (...a: unknown[]) => unknown).apply(inner, args),
      configurable: true,
      writable: true,
    });
  }
}

/** The usage a session's runCompaction() reports to the Agents SDK's runner (its RequestUsage fields). */
export interface AgentsCompactionUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails: Record<string, number>;
  outputTokensDetails: Record<string, number>;
}
