import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { ToolMessage } from '../messages/types.js';

/**
 * Where the originals of pruned tool results are kept, so `recall_tool_result` can bring
 * one back by its call id. A session store that keeps them implements these two methods
 * (keyed by the session and the call id, and deleted with the session).
 */
export interface PrunedResultStore {
  /** Keeps the original of a result that was just pruned (the message as it was before). */
  save(result: ToolMessage): void | Promise<void>;
  /** The original of the pruned result of call `toolCallId`, or undefined when none was kept. */
  load(toolCallId: string): ToolMessage | undefined | Promise<ToolMessage | undefined>;
}

/** Keeps the originals in memory, for the life of the agent. */
export class MemoryPrunedResultStore implements PrunedResultStore {
  readonly #results = new Map<string, ToolMessage>();

  save(result: ToolMessage): void {
    this.#results.set(result.toolCallId, result);
  }

  load(toolCallId: string): ToolMessage | undefined {
    return this.#results.get(toolCallId);
  }

  /** How many originals are kept. */
  get size(): number {
    return this.#results.size;
  }
}

/** True when `value` has the shape of a {@link PrunedResultStore}. */
export function isPrunedResultStore(value: unknown): value is PrunedResultStore {
  const v = value as Partial<PrunedResultStore> | null;
  return typeof v === 'object' && v !== null && typeof v.save === 'function' && typeof v.load === 'function';
}

/** The name of the tool that brings a pruned result back. */
export const RECALL_TOOL_NAME = 'recall_tool_result';

/** The recall tool as the model sees it; the compaction hook offers it once something was pruned. */
export const RECALL_TOOL_DEFINITION: ToolDefinition = {
  name: RECALL_TOOL_NAME,
  description:
    'Bring back the full result of an earlier tool call that was pruned to save context. Pass the id its ' +
    '[pruned: ...] marker names. Use it only when you need the exact content again.',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The tool call id the marker names.' } },
    required: ['id'],
  },
};

/** The note a marker carries when the result can be recalled. */
export function recallNote(toolCallId: string): string {
  return `${RECALL_TOOL_NAME}({"id":${JSON.stringify(toolCallId)}}) brings it back`;
}
