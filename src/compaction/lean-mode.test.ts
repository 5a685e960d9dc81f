/**
 * mode: 'lean' prunes each result once the model has answered it, so every compaction
 * only rewrites the end of the transcript; and recall keeps the originals, offering
 * recall_tool_result once something was pruned.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { Tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { prose } from '../test-support/text.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import { isPrunedMarker } from './marker.js';
import { MemoryPrunedResultStore, RECALL_TOOL_NAME } from './pruned-store.js';

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const read: Tool<never, unknown> = {
  name: 'read',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
  execute: (args: { path: string }) =>
    `// ${args.path}\nexport function handle_${args.path.length}() {}\n${prose(args.path.length, 6_000)}`,
};

/** Reads `n` files (ids r0, r1, ...), one a step, then answers; copies of the requests it received. */
function reader(n: number, recallAt?: { step: number; id: string }) {
  const requests: ModelRequest[] = [];
  const model = mockModel((request, index) => {
    requests.push({
      ...request,
      messages: [...request.messages],
      ...(request.tools ? { tools: [...request.tools] } : {}),
    });
    if (recallAt !== undefined && index === recallAt.step) {
      return { toolCalls: [{ id: 'back', name: RECALL_TOOL_NAME, arguments: { id: recallAt.id } }] } as MockReply;
    }
    const i = recallAt !== undefined && index > recallAt.step ? index - 1 : index;
    if (i >= n) return 'done';
    return { toolCalls: [{ id: `r${i}`, name: 'read', arguments: { path: `src/file${i}.ts` } }] } as MockReply;
  });
  return { model, requests };
}

const tool = (messages: readonly Message[], id: string) =>
  messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === id);

describe("mode: 'lean'", () => {
  it('prunes each result once the model has answered it, with a digest marker, changing only the end of the transcript', async () => {
    const { model, requests } = reader(6);
    const events: AgentEvent[] = [];
    const agent = createAgent({ provider: model, tools: [read], compaction: { mode: 'lean', contextWindow: 128_000 } });
    const result = await agent.send('Read the files.', { onEvent: (e) => events.push(e) });
    expect(result.text).toBe('done');
    for (let step = 2; step < requests.length; step++) {
      const messages = requests[step]?.messages ?? [];
      // The newest result is whole; the one before it, which the model has answered, is a digest marker.
      const newest = tool(messages, `r${step - 1}`);
      const answered = tool(messages, `r${step - 2}`);
      expect(isPrunedMarker(contentText(newest?.content ?? ''))).toBe(false);
      expect(contentText(answered?.content ?? '')).toMatch(
        /^\[pruned: read result, \d+ chars; already read; it showed: .*handle_\d+/,
      );
      // Everything before the result pruned at this step is what the previous request sent: the cache holds.
      const previous = requests[step - 1]?.messages ?? [];
      const at = messages.indexOf(answered as Message);
      expect(messages.slice(0, at)).toEqual(previous.slice(0, at));
    }
    const dones = events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    expect(dones.map((d) => d.prunedToolCallIds)).toEqual([['r0'], ['r1'], ['r2'], ['r3'], ['r4']]);
    expect(dones.every((d) => d.strategy === 'prune-tool-results' && d.unchanged === undefined)).toBe(true);
  });

  it('is refused when it is not a mode', () => {
    expect(() => createCompactionHook({ mode: 'cheap' as never })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
  });
});

describe('recall: true', () => {
  it('offers recall_tool_result only once something was pruned, and brings a result back by the id its marker names', async () => {
    const { model, requests } = reader(4, { step: 3, id: 'r0' });
    const agent = createAgent({ provider: model, tools: [read], compaction: { mode: 'lean', recall: true } });
    const result = await agent.send('Read the files.');
    expect(result.text).toBe('done');
    const offered = requests.map((r) => (r.tools ?? []).some((t) => t.name === RECALL_TOOL_NAME));
    // Step 1 and 2: nothing pruned yet. From step 3 on, r0 has been pruned.
    expect(offered.slice(0, 2)).toEqual([false, false]);
    expect(offered.slice(2).every(Boolean)).toBe(true);
    const marker = contentText(tool(requests[2]?.messages ?? [], 'r0')?.content ?? '');
    expect(marker).toContain(`${RECALL_TOOL_NAME}({"id":"r0"}) brings it back`);
    expect(isPrunedMarker(marker)).toBe(true);
    // The model recalled r0: the tool answered with the original content.
    const recalled = tool(requests[4]?.messages ?? [], 'back');
    expect(contentText(recalled?.content ?? '')).toBe(
      await read.execute({ path: 'src/file0.ts' } as never, { toolCallId: 'x' }),
    );
  });

  it('keeps the originals in the store it is given, and answers an unknown id with an error the model can read', async () => {
    const store = new MemoryPrunedResultStore();
    const { model, requests } = reader(3, { step: 3, id: 'nope' });
    const agent = createAgent({ provider: model, tools: [read], compaction: { mode: 'lean', recall: store } });
    await agent.send('Read the files.');
    expect(store.size).toBeGreaterThanOrEqual(1);
    expect(contentText((await store.load('r0'))?.content ?? '')).toContain('src/file0.ts');
    const answer = tool(requests[4]?.messages ?? [], 'back');
    expect(answer?.isError).toBe(true);
    expect(contentText(answer?.content ?? '')).toMatch(/No pruned result with id "nope"/);
  });
});
