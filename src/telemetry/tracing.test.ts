import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { summarizeStrategy } from '../compaction/summarize.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { mockModel } from '../testing/mock-model.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

const read = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: ({ path }: Record<string, unknown>) => `// ${String(path)}\n${'const x = 1;\n'.repeat(300)}`,
};

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** A 9-step run reading files on a 6,000-token window, compacted by summarizeStrategy with `summarizer`. */
async function summarizingRun(summarizer: ReturnType<typeof mockModel>): Promise<void> {
  const main = mockModel(
    (_r, i) => (i < 8 ? { toolCalls: [{ name: 'read_file', arguments: { path: `f${i}.ts` } }] } : 'done'),
    { modelId: 'gpt-4o' },
  );
  const agent = createAgent({
    provider: main,
    tools: [read],
    compaction: { contextWindow: 6_000, protectedTokens: 1_000, strategy: summarizeStrategy({ model: summarizer }) },
  });
  await agent.send('Read everything');
}

describe('OpenTelemetry spans', () => {
  it('gives a run one invoke_agent span with a chat span per model call and an execute_tool span per tool call under it', async () => {
    const model = mockModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] }, 'done'], {
      modelId: 'gpt-4o',
    });
    await createAgent({ name: 'reviewer', provider: model, tools: [read] }).send('Read a.ts');
    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name === 'invoke_agent reviewer');
    expect(run?.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    const chats = spans.filter((s) => s.name === 'chat gpt-4o');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(parentOf(chat)).toBe(run?.spanContext().spanId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock',
        'gen_ai.request.model': 'gpt-4o',
        'lousho.call.purpose': 'generate',
      });
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    }
    const tool = spans.find((s) => s.name === 'execute_tool read_file');
    expect(parentOf(tool as ReadableSpan)).toBe(run?.spanContext().spanId);
    expect(tool?.attributes['gen_ai.tool.call.id']).toBe('call_1_0');
  });

  it('reports cache reads, cache writes and reasoning apart on the chat spans and their totals on the run span', async () => {
    const usage = {
      inputTokens: 1_000,
      outputTokens: 300,
      cachedInputTokens: 600,
      cacheWriteInputTokens: 250,
      reasoningTokens: 200,
    };
    const model = mockModel(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }], usage },
        { text: 'done', usage },
      ],
      { modelId: 'claude-sonnet-4-5' },
    );
    await createAgent({ name: 'billed', provider: model, tools: [read] }).send('Read a.ts');
    const spans = exporter.getFinishedSpans();
    for (const chat of spans.filter((s) => s.name === 'chat claude-sonnet-4-5')) {
      expect(chat.attributes).toMatchObject({
        'gen_ai.usage.input_tokens': 1_000,
        'gen_ai.usage.output_tokens': 300,
        'gen_ai.usage.cache_read.input_tokens': 600,
        'gen_ai.usage.cache_creation.input_tokens': 250,
        'gen_ai.usage.reasoning.output_tokens': 200,
      });
    }
    expect(spans.find((s) => s.name === 'invoke_agent billed')?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 2_000,
      'gen_ai.usage.cache_read.input_tokens': 1_200,
      'gen_ai.usage.cache_creation.input_tokens': 500,
      'gen_ai.usage.reasoning.output_tokens': 400,
    });
  });

  it('gives each compaction a span under the run span with its strategy, tokens, pruned results and summary', async () => {
    const main = mockModel(
      (_r, i) => (i < 30 ? { toolCalls: [{ name: 'read_file', arguments: { path: `f${i}.ts` } }] } : 'done'),
      { modelId: 'gpt-4o' },
    );
    const done: AgentEvent[] = [];
    const agent = createAgent({
      provider: main,
      tools: [read],
      compaction: { contextWindow: 6_000, protectedTokens: 1_000 },
      onEvent: (e) => {
        if (e.type === 'compaction.done') done.push(e);
      },
    });
    await agent.send('Read everything');
    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name.startsWith('invoke_agent'));
    const compactions = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'compaction');
    expect(done.length).toBeGreaterThanOrEqual(5);
    expect(compactions).toHaveLength(done.length);
    for (const [i, span] of compactions.entries()) {
      const event = done[i] as Extract<AgentEvent, { type: 'compaction.done' }>;
      expect(parentOf(span)).toBe(run?.spanContext().spanId);
      expect(span.attributes).toMatchObject({
        'lousho.compaction.strategy': event.strategy,
        'lousho.compaction.tokens_before': event.tokensBefore,
        'lousho.compaction.tokens_after': event.tokensAfter,
        'lousho.compaction.results_pruned': event.prunedToolCallIds.length,
        'lousho.compaction.summary': event.summary === true,
      });
    }
  });

  it('marks a compaction span whose summarizer failed as an error, and says why it ran', async () => {
    await summarizingRun(mockModel(() => new Error('summarizer down'), { modelId: 'gpt-4o-mini' }));
    const compactions = exporter
      .getFinishedSpans()
      .filter((s) => s.attributes['gen_ai.operation.name'] === 'compaction');
    const failed = compactions.filter((s) => s.status.code === 2);
    expect(failed.length).toBeGreaterThan(0);
    for (const span of failed) {
      expect(span.attributes['error.type']).toBe('compaction');
      expect(String(span.attributes['lousho.compaction.error'])).toContain('summarizer down');
    }
    expect(compactions.every((s) => s.attributes['lousho.compaction.trigger'] === 'threshold')).toBe(true);
  });

  it("puts each recovery on the run's span as a lousho.recovery event", async () => {
    const model = mockModel([
      { toolCalls: [{ id: 'cut', name: 'read_file', arguments: '{"path":"src/ma' }], finishReason: 'length' },
      { toolCalls: [{ id: 'full', name: 'read_file', arguments: { path: 'src/main.ts' } }] },
      'done',
    ]);
    await createAgent({ provider: model, tools: [read], maxOutputTokens: 1_024 }).send('Read main');
    const run = exporter.getFinishedSpans().find((s) => s.name.startsWith('invoke_agent'));
    const recoveries = run?.events.filter((e) => e.name === 'lousho.recovery') ?? [];
    expect(recoveries).toHaveLength(1);
    expect(recoveries[0]?.attributes).toMatchObject({
      'lousho.recovery.kind': 'output-truncated',
      'lousho.recovery.attempt': 1,
      'lousho.step': 1,
    });
    expect(String(recoveries[0]?.attributes?.['lousho.recovery.action'])).toContain('cut at the output limit');
  });

  it("gives the summarizer's call a chat span with lousho.call.purpose 'compaction' under the run's span", async () => {
    const summarizer = mockModel(() => 'Summary.', { modelId: 'gpt-4o-mini' });
    await summarizingRun(summarizer);
    const spans = exporter.getFinishedSpans();
    const run = spans.find((s) => s.name.startsWith('invoke_agent'));
    const compaction = spans.filter((s) => s.attributes['lousho.call.purpose'] === 'compaction');
    expect(summarizer.calls.length).toBeGreaterThan(0);
    expect(compaction).toHaveLength(summarizer.calls.length);
    for (const span of compaction) {
      expect(span.name).toBe('chat gpt-4o-mini');
      expect(parentOf(span)).toBe(run?.spanContext().spanId);
    }
  });

  it('marks the run span as failed when the run fails', async () => {
    const agent = createAgent({ provider: mockModel([new Error('down')]) });
    await expect(agent.send('hi')).rejects.toMatchObject({ code: 'LOUSHO_PROVIDER_FAILED' });
    const run = exporter.getFinishedSpans().find((s) => s.name.startsWith('invoke_agent'));
    expect(run?.status.code).toBe(2); // SpanStatusCode.ERROR
    const chat = exporter.getFinishedSpans().find((s) => s.name.startsWith('chat'));
    expect(chat?.status.code).toBe(2);
  });
});
