import type { Message } from '../messages/types.js';
import { isPrunedMarker } from './marker.js';
import { type PrunedResultStore, RECALL_TOOL_DEFINITION, recallNote } from './pruned-store.js';
import { type CompactionStrategy, layered, transcriptOf } from './types.js';

/**
 * Before a compaction's result is applied: the originals of the results it pruned are saved
 * to `store`, and each of their markers names the call id `recall_tool_result` takes,
 * whatever strategy wrote it. Resolves to the messages to apply and how many were saved.
 */
async function keepForRecall(
  store: PrunedResultStore,
  before: readonly Message[],
  after: Message[],
  prunedToolCallIds: readonly string[],
): Promise<{ messages: Message[]; saved: number }> {
  const pruned = new Set(prunedToolCallIds);
  const originals = new Map<string, Message>();
  for (const m of before) if (m.role === 'tool' && pruned.has(m.toolCallId)) originals.set(m.toolCallId, m);
  const messages = after.map((m) => {
    const original = m.role === 'tool' ? originals.get(m.toolCallId) : undefined;
    if (m.role !== 'tool' || original?.role !== 'tool' || typeof m.content !== 'string') return m;
    if (!isPrunedMarker(m.content) || m.content.includes(recallNote(m.toolCallId))) return m;
    return { ...m, content: `${m.content.slice(0, -1)}; ${recallNote(m.toolCallId)}]` };
  });
  let saved = 0;
  for (const original of originals.values()) {
    try {
      await store.save(original as Extract<Message, { role: 'tool' }>);
      saved++;
    } catch (error) {
      console.error(
        '@lousho/build-ai-agent: the pruned-result store failed to save; that result cannot be recalled.',
        error,
      );
    }
  }
  return { messages, saved };
}

/**
 * Reversible pruning (`recall: true`, or a store), a layer around the strategy: the originals
 * of the results a compaction pruned are kept in `store`, their markers name the call id, and
 * once something can be recalled the strategy offers the model `recall_tool_result`. What was
 * saved is counted per transcript. Pick it when the model may need an old output again in full.
 */
export function recallLayer(strategy: CompactionStrategy, store: PrunedResultStore): CompactionStrategy {
  const saved = new WeakMap<object, number>();
  return layered(
    strategy,
    async (input) => {
      const result = await strategy.compact(input);
      if (result.prunedToolCallIds.length === 0 || result.messages === input.messages) return result;
      const kept = await keepForRecall(store, input.messages, result.messages, result.prunedToolCallIds);
      saved.set(transcriptOf(input), (saved.get(transcriptOf(input)) ?? 0) + kept.saved);
      return { ...result, messages: kept.messages };
    },
    {
      tools: [...(strategy.tools ?? []), RECALL_TOOL_DEFINITION],
      offers: (at) => [
        ...(strategy.offers?.(at) ?? []),
        ...((saved.get(transcriptOf(at)) ?? 0) > 0 ? [RECALL_TOOL_DEFINITION.name] : []),
      ],
    },
  );
}
