import { describe, expect, it } from 'vitest';
import { pinMessage } from '../messages/pin.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { estimateTokens, messageTokens } from '../models/estimate-tokens.js';
import { readingTranscript, toolTurn } from '../test-support/transcripts.js';
import { isPrunedMarker, prunedMarker } from './marker.js';
import { pruneToolResults, pruneToolResultsStrategy } from './prune-tool-results.js';
import type { CompactionInput } from './types.js';

function input(messages: Message[], protectedTokens = 0): CompactionInput {
  return {
    messages,
    estimateTokens: (list) => estimateTokens(list),
    countMessage: (m) => messageTokens(m),
    contextWindow: 128_000,
    protectedTokens,
    thresholdTokens: 115_200,
  };
}

const contentOf = (messages: Message[], id: string) =>
  (messages.find((m) => m.role === 'tool' && m.toolCallId === id) as ToolMessage).content;

describe('pruneToolResultsStrategy', () => {
  it('replaces old results with a marker naming the call and the size', () => {
    const messages = [
      ...toolTurn('c1', 'search', { query: 'deploy' }, 'r'.repeat(18234)),
      { role: 'assistant', content: 'ok' } as Message,
    ];
    const result = pruneToolResults(input(messages));
    expect(contentOf(result.messages, 'c1')).toBe(
      '[pruned: search({"query":"deploy"}) result, 18234 chars; already read]',
    );
    expect(result.prunedToolCallIds).toEqual(['c1']);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(pruneToolResultsStrategy().name).toBe('prune-tool-results');
  });

  it('cuts arguments longer than 120 characters in the marker', () => {
    const marker = prunedMarker('write', { text: 'y'.repeat(500) }, 9);
    const args = marker.slice('[pruned: write('.length, marker.indexOf(') result'));
    expect(args).toBe(`${JSON.stringify({ text: 'y'.repeat(500) }).slice(0, 120)}…`);
    expect(isPrunedMarker(marker)).toBe(true);
  });

  it('never changes system, user or assistant messages', () => {
    const messages = readingTranscript(6);
    messages.push({ role: 'assistant', content: 'Done.' });
    const result = pruneToolResults(input(messages));
    result.messages.forEach((m, i) => {
      if (m.role !== 'tool') expect(m).toBe(messages[i]);
    });
    expect(result.prunedToolCallIds).toHaveLength(6);
  });

  it("keeps the latest assistant turn's results even when they exceed protectedTokens", () => {
    const messages = readingTranscript(3, 20_000);
    const result = pruneToolResults(input(messages, 0));
    expect(result.prunedToolCallIds).toEqual(['call_0', 'call_1']);
    expect(result.messages.at(-1)).toBe(messages.at(-1));
  });

  it('keeps pinned results, markers of both forms and results shorter than a marker', () => {
    const old = '[pruned: search result, 18234 chars]';
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      ...toolTurn('pinned', 'read', { path: 'a' }, 'p'.repeat(5_000)),
      ...toolTurn('older', 'search', {}, old),
      ...toolTurn('current', 'search', { q: 1 }, prunedMarker('search', { q: 1 }, 999)),
      ...toolTurn('short', 'ls', {}, 'a.ts'),
      ...toolTurn('big', 'read', { path: 'b' }, 'b'.repeat(5_000)),
      { role: 'assistant', content: 'done' },
    ];
    messages[2] = pinMessage(messages[2] as Message);
    const result = pruneToolResults(input(messages));
    expect(result.prunedToolCallIds).toEqual(['big']);
    expect(contentOf(result.messages, 'older')).toBe(old);
    expect(contentOf(result.messages, 'short')).toBe('a.ts');
  });

  it('keeps an older marker that is longer than the stub of its call (the result names its MCP tool, the call is short)', () => {
    // A transcript from another tool: the result names its MCP tool, the call is called 'grep'. The
    // older marker is longer than the new stub would be (in characters and tokens), so only
    // recognising it as a marker keeps it.
    const older = '[pruned: mcp__github__search_code_in_repository_by_query result, 18234 chars]';
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'older', name: 'grep', arguments: {} }] },
      {
        role: 'tool',
        toolCallId: 'older',
        toolName: 'mcp__github__search_code_in_repository_by_query',
        content: older,
      },
      ...toolTurn('big', 'read', { path: 'b' }, 'b'.repeat(5_000)),
      { role: 'assistant', content: 'done' },
    ];
    expect(older.length).toBeGreaterThan(prunedMarker('grep', {}, older.length).length);
    const result = pruneToolResults(input(messages));
    expect(result.prunedToolCallIds).toEqual(['big']);
    expect(contentOf(result.messages, 'older')).toBe(older);
  });

  it('leaves the protected tail unchanged', () => {
    const messages = readingTranscript(10);
    messages.push({ role: 'assistant', content: 'summary of findings' });
    const tail = messages.slice(-5).reduce((sum, m) => sum + messageTokens(m), 0);
    const result = pruneToolResults(input(messages, tail));
    expect(result.messages.slice(-5)).toEqual(messages.slice(-5));
    expect(result.prunedToolCallIds).toHaveLength(8);
  });

  it('returns the input array itself when there is nothing to prune', () => {
    const messages = readingTranscript(1);
    const result = pruneToolResults(input(messages));
    expect(result.messages).toBe(messages);
    expect(result.tokensAfter).toBe(result.tokensBefore);
  });

  it('writes digests that leave out what the request already shows: the task, the calls, an earlier digest', () => {
    const listing = (extra: string) =>
      `django/db/models/query.py:512: def bulk_create(self, objs):\n${extra}\n${'    pass\n'.repeat(200)}`;
    const messages: Message[] = [
      { role: 'user', content: 'Why does bulk_create in django/db/models/query.py fail?' },
      ...toolTurn('c1', 'bash', { command: 'grep -rn bulk_create' }, listing('django/db/models/manager.py: objects')),
      ...toolTurn(
        'c2',
        'bash',
        { command: 'grep -rn objects' },
        listing('django/db/models/manager.py: objects\ndjango/db/models/sql/compiler.py: as_sql'),
      ),
      { role: 'assistant', content: 'Reading on.' },
    ];
    const result = pruneToolResults(input(messages), { marker: 'digest' });
    const first = String(contentOf(result.messages, 'c1'));
    const second = String(contentOf(result.messages, 'c2'));
    // The task names the file and bulk_create: neither digest repeats them.
    for (const marker of [first, second]) {
      expect(isPrunedMarker(marker)).toBe(true);
      expect(marker).not.toContain('django/db/models/query.py');
      expect(marker).not.toContain('bulk_create');
    }
    expect(first).toContain('django/db/models/manager.py');
    // The second names what is new in it, not what the first digest already named.
    expect(second).toContain('django/db/models/sql/compiler.py');
    expect(second).not.toContain('manager.py');
  });
});
