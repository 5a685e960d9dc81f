import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import type { Message } from '../messages/types.js';
import { estimateTokens, messageTokens, tokenProfile } from '../models/estimate-tokens.js';
import { freedTokens } from './report-data.js';
import { transcriptReport } from './report-from-transcript.js';

const call = (id: string, name: string, args: unknown = {}) => ({ id, name, arguments: args });

/** Three steps: a read, a search with two calls, an answer. */
const messages: Message[] = [
  { role: 'system', content: 'You review code.' },
  { role: 'user', content: 'Review the project.' },
  { role: 'assistant', content: 'Reading.', toolCalls: [call('c1', 'read_file', { path: 'a.ts' })] },
  { role: 'tool', toolCallId: 'c1', content: 'export const a = 1;\n'.repeat(200) },
  {
    role: 'assistant',
    content: '',
    toolCalls: [call('c2', 'mcp__github__search_issues', { q: 'bug' }), call('c3', 'read_file', { path: 'b.ts' })],
  },
  { role: 'tool', toolCallId: 'c2', content: 'no issues' },
  { role: 'tool', toolCallId: 'c3', content: 'export const b = 2;\n'.repeat(40) },
  { role: 'assistant', content: 'It is a small project.' },
];

const options = { model: 'gpt-4o' };

describe("a transcript's report", () => {
  it('has one step per assistant turn, each sized as the request that produced it', () => {
    const data = transcriptReport('t.json', { messages }, 'read as test', options);
    const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
    expect(data.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(data.steps.map((s) => s.tokens)).toEqual(
      assistants.map((i) => estimateTokens(messages.slice(0, i), 'gpt-4o')),
    );
    expect(data.marks).toEqual([]);
  });

  it('counts the tool definitions the file holds in every request', () => {
    const tools: ToolDefinition[] = [
      {
        name: 'read_file',
        description: 'Read a file',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const data = transcriptReport('t.json', { messages, tools }, 'read as test', options);
    expect(data.steps[1]?.tokens).toBe(estimateTokens({ model: 'gpt-4o', messages: messages.slice(0, 4), tools }));
  });

  it('marks a provider-side compaction at the step after it, and sizes later requests from it on', () => {
    const compacted: Message[] = [
      ...messages.slice(0, 4),
      { role: 'assistant', content: [{ type: 'compaction', text: 'Summary: a.ts read.', provider: 'anthropic' }] },
      { role: 'user', content: 'Go on.' },
      { role: 'assistant', content: 'Done.' },
    ];
    const data = transcriptReport('t.json', { messages: compacted }, 'read as test', options);
    const profile = tokenProfile('gpt-4o');
    const framing = estimateTokens([], 'gpt-4o');
    const from = (i: number, j: number) => compacted.slice(i, j).reduce((sum, m) => sum + messageTokens(m, profile), 0);
    // The provider drops what came before the compaction but the system prompt (as estimateTokens() counts it).
    const system = from(0, 1);
    expect(data.steps.map((s) => s.tokens)).toEqual([
      framing + from(0, 2),
      framing + from(0, 4),
      framing + system + from(4, 6),
    ]);
    expect(data.steps[2]?.tokens).toBe(estimateTokens(compacted.slice(0, 6), 'gpt-4o'));
    expect(data.marks).toHaveLength(1);
    const [mark] = data.marks;
    expect(mark).toMatchObject({
      step: 3,
      kind: 'compaction',
      tokensBefore: framing + from(0, 6),
      tokensAfter: framing + system + from(4, 6),
    });
    expect(freedTokens(mark as (typeof data.marks)[number])).toBe(from(1, 4));
  });

  it('tells its make-up by role and by tool, whole tool names included, and its largest results with their step', () => {
    const data = transcriptReport('t.json', { messages }, 'read as test', options);
    const profile = tokenProfile('gpt-4o');
    expect(data.byRole.map((r) => [r.name, r.messages])).toEqual([
      ['system', 1],
      ['user', 1],
      ['assistant', 3],
      ['tool', 3],
    ]);
    expect(data.byTool.map((r) => [r.name, r.messages])).toEqual([
      ['read_file', 2],
      ['mcp__github__search_issues', 1],
    ]);
    expect(data.byTool[0]?.tokens).toBe(
      messageTokens(messages[3] as Message, profile) + messageTokens(messages[6] as Message, profile),
    );
    expect(data.largest.map((r) => [r.toolCallId, r.step, r.tool])).toEqual([
      ['c1', 1, 'read_file'],
      ['c3', 2, 'read_file'],
      ['c2', 2, 'mcp__github__search_issues'],
    ]);
    expect(data.largest[0]?.preview).toMatch(/^export const a = 1;/);
    // The total is the one inspect and compact give: the request the whole transcript makes.
    expect(data.totals).toEqual({ messages: messages.length, tokens: estimateTokens(messages, 'gpt-4o') });
    expect(data.transcriptTokens).toBe(estimateTokens(messages, 'gpt-4o'));
  });

  it('takes the window from the model, or from the option, and the threshold as a share of it', () => {
    expect(transcriptReport('t', { messages }, '', { model: 'gpt-4o' })).toMatchObject({
      contextWindow: 128_000,
      thresholdTokens: 115_200,
    });
    expect(
      transcriptReport('t', { messages }, '', { model: 'gpt-4o', contextWindow: 10_000, thresholdPercent: 0.5 }),
    ).toMatchObject({ contextWindow: 10_000, thresholdTokens: 5_000, windowFrom: '--context-window' });
  });
});
