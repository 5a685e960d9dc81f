import type { Message } from '../messages/types.js';
import { isPrunedMarker } from './marker.js';
import { type PrunedResultStore, recallNote } from './pruned-store.js';

/**
 * The recall layer (`recall: true` or a store): before a compaction is applied, the
 * originals of the results it pruned are saved, and each of their markers names the call id
 * `recall_tool_result` takes, whatever strategy wrote it. Resolves to the messages to apply
 * and how many originals were saved.
 */
export async function keepForRecall(
  store: PrunedResultStore,
  before: readonly Message[],
  after: Message[],
  prunedToolCallIds: readonly string[],
): Promise<{ messages: Message[]; saved: number }> {
  if (prunedToolCallIds.length === 0) return { messages: after, saved: 0 };
  const pruned = new Set(prunedToolCallIds);
  const originals = new Map<string, Message>();
  for (const m of before) if (m.role === 'tool' && pruned.has(m.toolCallId)) originals.set(m.toolCallId, m);
  let saved = 0;
  const messages = after.map((m) => {
    const original = m.role === 'tool' ? originals.get(m.toolCallId) : undefined;
    if (m.role !== 'tool' || original?.role !== 'tool' || typeof m.content !== 'string') return m;
    if (!isPrunedMarker(m.content) || m.content.includes(recallNote(m.toolCallId))) return m;
    return { ...m, content: `${m.content.slice(0, -1)}; ${recallNote(m.toolCallId)}]` };
  });
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
