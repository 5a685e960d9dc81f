/**
 * mode: 'lean' prunes each result once the model has answered it, so every compaction
 * only rewrites the end of the transcript; and recall keeps the originals, offering
 * recall_tool_result once something was pruned.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent, CompactionDoneEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { RunState } from '../executor/run-state.js';
import type { Tool } from '../executor/tool.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { prose } from '../test-support/text.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { createCompactionHook } from './compaction-hook.js';
import { leanLayer } from './lean-layer.js';
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
      const marker = contentText(answered?.content ?? '');
      expect(marker).toMatch(/^\[pruned: read result, \d+ chars; already read/);
      // Every file defines handle_12: the first digest names it, and later ones do not repeat
      // what an earlier message already shows.
      if (step === 2) expect(marker).toMatch(/it showed: .*handle_12/);
      else expect(marker).not.toMatch(/handle_12/);
      // Everything before the result pruned at this step is what the previous request sent: the cache holds.
      const previous = requests[step - 1]?.messages ?? [];
      const at = messages.indexOf(answered as Message);
      expect(messages.slice(0, at)).toEqual(previous.slice(0, at));
    }
    const dones = events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    expect(dones.map((d) => d.prunedToolCallIds)).toEqual([['r0'], ['r1'], ['r2'], ['r3'], ['r4']]);
    expect(dones.every((d) => d.strategy === 'prune-tool-results' && d.unchanged === undefined)).toBe(true);
  });

  it('keeps pruning each answered result after something else (the last-resort fit) removed old messages', async () => {
    const turn = (i: number): Message[] => [
      { role: 'assistant', content: '', toolCalls: [{ id: `r${i}`, name: 'read', arguments: { path: `f${i}.ts` } }] },
      {
        role: 'tool',
        toolCallId: `r${i}`,
        content: `// f${i}.ts\nexport function handle_${i}() {}\n${prose(i, 6_000)}`,
      },
    ];
    const messages: Message[] = [{ role: 'user', content: 'Read.' }, ...[0, 1, 2, 3, 4, 5].flatMap(turn)];
    const provider = mockModel(['unused']);
    const run = new RunState({ messages, provider, abortSignal: undefined, emit: undefined });
    const hook = createCompactionHook({ mode: 'lean', contextWindow: 128_000 });
    const step = () => hook.preGenerate?.({ request: { model: provider.modelId, messages }, run });
    await step();
    expect(isPrunedMarker(contentText(tool(messages, 'r4')?.content ?? ''))).toBe(true);
    // The executor's fit drops the four oldest turns; the run goes on with two more.
    messages.splice(1, 8);
    messages.push(...turn(6), ...turn(7));
    await step();
    expect(isPrunedMarker(contentText(tool(messages, 'r6')?.content ?? ''))).toBe(true);
    expect(isPrunedMarker(contentText(tool(messages, 'r7')?.content ?? ''))).toBe(false);
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

  it('sizes its digest markers by digestChars: a larger budget keeps more of the names a result showed', async () => {
    // A result that shows many names: 60 compound identifiers, each named once.
    const names = Array.from({ length: 60 }, (_, i) => `handle_event_${i}`);
    const listing: Tool<never, unknown> = {
      name: 'read',
      description: 'Read a file.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      execute: () => `${names.map((n) => `def ${n}(request):\n    return ${n.length}`).join('\n')}\n${prose(3, 4_000)}`,
    };
    const markerWith = async (digestChars?: number) => {
      const { model } = reader(2);
      const compaction = {
        mode: 'lean' as const,
        contextWindow: 128_000,
        ...(digestChars === undefined ? {} : { digestChars }),
      };
      const result = await createAgent({ provider: model, tools: [listing], compaction }).send('Read.');
      return contentText(tool(result.messages, 'r0')?.content ?? '');
    };
    const small = await markerWith();
    const large = await markerWith(1_000);
    expect(isPrunedMarker(small)).toBe(true);
    expect(isPrunedMarker(large)).toBe(true);
    const kept = (marker: string) => names.filter((n) => new RegExp(`\\b${n}\\b`).test(marker)).length;
    expect(kept(small)).toBeGreaterThan(0);
    expect(kept(large)).toBeGreaterThan(3 * kept(small));
    expect(large.length).toBeLessThanOrEqual(small.length + 1_000);
  });

  it('refuses digestChars outside lean mode, or not a whole number, saying what to pass instead', () => {
    expect(() => createCompactionHook({ digestChars: 500 })).toThrow(
      expect.objectContaining({
        code: 'LOUSHO_CONFIG_INVALID',
        message: expect.stringMatching(
          /mode: 'lean'.*pruneToolResultsStrategy\(\{ marker: 'digest', digestChars: 500 \}\)/,
        ),
      }),
    );
    expect(() => createCompactionHook({ mode: 'lean', digestChars: -1 })).toThrow(/whole number of characters/);
    expect(() => createCompactionHook({ mode: 'lean', digestChars: 1.5 })).toThrow(/whole number of characters/);
    expect(() => createAgent({ provider: reader(1).model, compaction: { digestChars: 500 } })).toThrow(/mode: 'lean'/);
  });
});

describe('the lean layer', () => {
  it('looks at what came since its last step, not the whole transcript, at 2,000 messages', async () => {
    const messages: Message[] = [{ role: 'user', content: 'Read.' }];
    const turn = (i: number): Message[] => [
      { role: 'assistant', content: '', toolCalls: [{ id: `r${i}`, name: 'read', arguments: { path: `f${i}.ts` } }] },
      { role: 'tool', toolCallId: `r${i}`, content: `// f${i}.ts\n${prose(i, 2_000)}` },
    ];
    for (let i = 0; i < 1_000; i++) messages.push(...turn(i));
    let reads = 0;
    const tracked = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const transcript = {};
    const count = (list: readonly Message[]) => list.length; // the layer's own work is what is counted here
    const inner = {
      name: 'inner',
      compact: () => ({ messages: [], tokensBefore: 0, tokensAfter: 0, prunedToolCallIds: [] }),
    };
    const layer = leanLayer(inner);
    const input = () => ({
      messages: tracked,
      estimateTokens: count,
      countMessage: () => 1,
      contextWindow: 1_000_000,
      protectedTokens: 0,
      thresholdTokens: 1_000_000,
      transcript,
    });
    await layer.compact(input());
    for (let step = 1_000; step < 1_005; step++) {
      messages.push(...turn(step));
      reads = 0;
      await layer.compact(input());
      // The newest turn and the one it answered, and a look back for the latest assistant message.
      expect(reads).toBeLessThan(20);
    }
  });
});
