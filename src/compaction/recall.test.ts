import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { recallTool } from '../agent/recall-tool.js';
import type { ToolMessage } from '../messages/types.js';
import { proseReadTool } from '../test-support/transcripts.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import { isPrunedMarker } from './marker.js';
import { DEFAULT_RECALL_MAX_BYTES, MemoryPrunedResultStore } from './pruned-store.js';

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const result = (id: string, chars: number): ToolMessage => ({
  role: 'tool',
  toolCallId: id,
  content: 'x'.repeat(chars),
});

describe('recall', () => {
  it('in the default mode, every marker names the call id recall_tool_result takes', async () => {
    const model = mockModel((_request, index) =>
      index >= 30
        ? 'done'
        : ({ toolCalls: [{ id: `r${index}`, name: 'read', arguments: { path: `f${index}` } }] } as MockReply),
    );
    const agent = createAgent({
      provider: model,
      tools: [proseReadTool(8_000)],
      compaction: { contextWindow: 16_000, recall: true },
    });
    const { messages } = await agent.send('Read the files.');
    const markers = messages.filter((m): m is ToolMessage => m.role === 'tool' && isPrunedMarker(String(m.content)));
    expect(markers.length).toBeGreaterThan(5);
    for (const m of markers) expect(String(m.content)).toContain(`recall_tool_result({"id":"${m.toolCallId}"})`);
  });

  it('keeps at most maxBytes of originals, oldest evicted first, and the recall tool says when one was evicted', async () => {
    const store = new MemoryPrunedResultStore({ maxBytes: 100_000 });
    for (let i = 0; i < 50; i++) store.save(result(`c${i}`, 10_000)); // 20 KB each as UTF-16
    expect(store.bytes).toBeLessThanOrEqual(100_000);
    expect(store.size).toBe(5);
    expect(store.load('c49')).toBeDefined();
    expect(store.load('c0')).toBeUndefined();
    expect(store.wasEvicted('c0')).toBe(true);
    const tool = recallTool(store);
    await expect(Promise.resolve(tool.execute({ id: 'c0' }, {} as never))).rejects.toThrow(/evicted/);
    await expect(Promise.resolve(tool.execute({ id: 'nope' }, {} as never))).rejects.toThrow(/No pruned result/);
    expect(await tool.execute({ id: 'c49' }, {} as never)).toBe('x'.repeat(10_000));
  });

  it('stays within its 16 MB default however many results are pruned', () => {
    const store = new MemoryPrunedResultStore();
    for (let i = 0; i < 2_000; i++) store.save(result(`c${i}`, 10_000));
    expect(DEFAULT_RECALL_MAX_BYTES).toBe(16 * 1024 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(DEFAULT_RECALL_MAX_BYTES);
    expect(store.size).toBe(Math.floor(DEFAULT_RECALL_MAX_BYTES / 20_000));
  });
});
