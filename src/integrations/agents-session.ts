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
}

/** The usage a session's runCompaction() reports to the Agents SDK's runner (its RequestUsage fields). */
export interface AgentsCompactionUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails: Record<string, number>;
  outputTokensDetails: Record<string, number>;
}
