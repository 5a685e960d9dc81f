import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscriptFile } from '../cli/transcript-file.js';
import { sharedPath } from '../test-support/corpus.js';
import { fromLangChain } from './from-langchain.js';

const stream = sharedPath('fixtures/transcripts/langchain/vercelai-langgraph-stream-fixtures.ts');
const trace = sharedPath('fixtures/transcripts/langchain/langsmith-run-chatopenai-lc-constructor.ts');
if (stream === undefined || trace === undefined)
  console.warn(
    'from-langchain.test.ts: the LangChain fixtures of shared/fixtures/transcripts were not found; their tests are skipped.',
  );

/** The messages of the last `values` event of a recorded LangGraph stream: the graph's state. */
function lastState(events: unknown[]): unknown[] {
  const values = events.filter((e) => Array.isArray(e) && e[0] === 'values' && Array.isArray(e[1]?.messages));
  return (values.at(-1) as [string, { messages: unknown[] }])[1].messages;
}

describe('fromLangChain()', () => {
  it.skipIf(stream === undefined)(
    "sets each AI message's usage_metadata as its metadata.reportedUsage (the real LangGraph state)",
    async () => {
      const { REACT_AGENT_TOOL_CALLING } = (await import(stream as string)) as { REACT_AGENT_TOOL_CALLING: unknown[] };
      const replies = fromLangChain(lastState(REACT_AGENT_TOOL_CALLING)).filter((m) => m.role === 'assistant');
      expect(replies.map((m) => m.metadata?.reportedUsage)).toEqual([
        { inputTokens: 346, outputTokens: 126, cacheReadTokens: 0, reasoningTokens: 64 },
        { inputTokens: 879, outputTokens: 48, cacheReadTokens: 0, reasoningTokens: 0 },
      ]);
    },
  );

  it.skipIf(stream === undefined)(
    'reads a real LangGraph state of serialized messages, tool calls paired with their ToolMessages',
    async () => {
      const { REACT_AGENT_TOOL_CALLING } = (await import(stream as string)) as { REACT_AGENT_TOOL_CALLING: unknown[] };
      const state = lastState(REACT_AGENT_TOOL_CALLING);
      const messages = fromLangChain(state);
      expect(messages).toHaveLength(state.length);
      expect(messages[0]).toEqual({ role: 'user', content: "What's the weather in Tokyo and what time is it there?" });
      const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
      const results = messages.filter((m) => m.role === 'tool');
      expect(calls.length).toBeGreaterThan(0);
      expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
      // The same state as JSON on disk is recognised by its { lc: 1, type: 'constructor' } form.
      const path = join(await mkdtemp(join(tmpdir(), 'lousho-lc-')), 'state.json');
      await writeFile(path, JSON.stringify({ messages: state }));
      const file = await readTranscriptFile(path);
      expect(file.source.log).toBe('LangChain messages');
      expect(file.messages).toEqual(messages);
    },
  );

  it.skipIf(trace === undefined)(
    "reads a LangSmith run's lc constructor messages, OpenAI tool calls in additional_kwargs",
    async () => {
      const { trace: run } = (await import(trace as string)) as {
        trace: { inputs: { messages: unknown[][] }; outputs: { generations: { message: unknown }[][] } };
      };
      const messages = fromLangChain([...(run.inputs.messages[0] ?? []), run.outputs.generations[0]?.[0]?.message]);
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
      const last = messages.at(-1);
      expect(last?.role === 'assistant' && last.toolCalls?.[0]?.id).toBe('call_Rtwip6XWS7RFjImASWbpDdBx');
    },
  );

  it('reads messages_to_dict() entries and plain dicts alike', () => {
    const call = { id: 'c1', name: 'weather', args: { city: 'Paris' }, type: 'tool_call' };
    const dicts = fromLangChain([
      { type: 'human', data: { content: 'Weather in Paris?' } },
      { type: 'ai', data: { content: '', tool_calls: [call] } },
      { type: 'tool', data: { content: '18°C', tool_call_id: 'c1', name: 'weather' } },
    ]);
    const plain = fromLangChain([
      { type: 'human', content: 'Weather in Paris?' },
      { type: 'ai', content: '', tool_calls: [call] },
      { type: 'tool', content: '18°C', tool_call_id: 'c1', name: 'weather' },
    ]);
    expect(dicts).toEqual(plain);
    expect(plain[1]).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }],
    });
    expect(plain[2]).toEqual({ role: 'tool', toolCallId: 'c1', toolName: 'weather', content: '18°C' });
  });
});
