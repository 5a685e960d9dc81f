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

/** The bytes of originals a MemoryPrunedResultStore keeps by default: 16 MB. */
export const DEFAULT_RECALL_MAX_BYTES = 16 * 1024 * 1024;

/** The bytes a result takes in memory, as UTF-16 text (images by their data). */
function resultBytes(result: ToolMessage): number {
  if (typeof result.content === 'string') return result.content.length * 2;
  let bytes = 0;
  for (const part of result.content) {
    if (part.type === 'text') bytes += part.text.length * 2;
    else bytes += part.image instanceof Uint8Array ? part.image.length : String(part.image).length * 2;
  }
  return bytes;
}

/**
 * Keeps the originals in memory, at most `maxBytes` of them (16 MB by default): past that
 * the oldest are evicted first, and `recall_tool_result` says so for an evicted id.
 */
export class MemoryPrunedResultStore implements PrunedResultStore {
  readonly #results = new Map<string, { result: ToolMessage; bytes: number }>();
  readonly #evicted = new Set<string>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(options: { maxBytes?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_RECALL_MAX_BYTES;
  }

  save(result: ToolMessage): void {
    const bytes = resultBytes(result);
    const previous = this.#results.get(result.toolCallId);
    if (previous !== undefined) {
      this.#bytes -= previous.bytes;
      this.#results.delete(result.toolCallId);
    }
    this.#results.set(result.toolCallId, { result, bytes });
    this.#evicted.delete(result.toolCallId);
    this.#bytes += bytes;
    for (const [id, kept] of this.#results) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#results.delete(id);
      this.#bytes -= kept.bytes;
      this.#evicted.add(id);
    }
  }

  load(toolCallId: string): ToolMessage | undefined {
    return this.#results.get(toolCallId)?.result;
  }

  /** True when the original of `toolCallId` was kept once and evicted to stay within maxBytes. */
  wasEvicted(toolCallId: string): boolean {
    return this.#evicted.has(toolCallId);
  }

  /** How many originals are kept. */
  get size(): number {
    return this.#results.size;
  }

  /** The bytes the kept originals take. */
  get bytes(): number {
    return this.#bytes;
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
