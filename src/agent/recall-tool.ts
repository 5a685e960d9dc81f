import type { PrunedResultStore } from '../compaction/pruned-store.js';
import { RECALL_TOOL_DEFINITION, RECALL_TOOL_NAME } from '../compaction/pruned-store.js';
import type { Tool } from '../executor/tool.js';
import type { ContentPart } from '../messages/types.js';

/**
 * The `recall_tool_result` tool: brings back the original of a pruned result, by the call id
 * its marker names, from the store the compaction hook kept it in. createAgent() registers
 * it when `compaction.recall` is set; the hook sends its definition only once something
 * was pruned.
 *
 * @example
 * const store = new MemoryPrunedResultStore();
 * createAgent({ provider, tools: [...tools, recallTool(store)], hooks: [createCompactionHook({ recall: store })] });
 */
export function recallTool(store: PrunedResultStore): Tool<
  {
    /** The call id the pruned result's marker names. */
    id: string;
  },
  string | ContentPart[]
> {
  return {
    name: RECALL_TOOL_NAME,
    ...(RECALL_TOOL_DEFINITION.description === undefined ? {} : { description: RECALL_TOOL_DEFINITION.description }),
    parameters: RECALL_TOOL_DEFINITION.parameters,
    async execute({ id }) {
      const original = await store.load(String(id));
      if (original === undefined) {
        const evicted = (store as { wasEvicted?: (id: string) => boolean }).wasEvicted?.(String(id)) === true;
        throw new Error(
          evicted
            ? `The pruned result of call ${JSON.stringify(id)} was evicted from the recall store (it keeps the newest originals within its size limit); call the tool again instead.`
            : `No pruned result with id ${JSON.stringify(id)} was kept; call the tool again instead.`,
        );
      }
      return original.content;
    },
  };
}
