/**
 * What Anthropic bills, read through the real client on loopback: every iteration of a reply
 * that ran a server-side compaction first (whole and streamed), and one-hour cache writes at
 * 2x the input price. The usage objects are Anthropic's own, as recorded:
 * - the compaction reply and stream: vercel/ai packages/anthropic/src/__fixtures__/
 *   anthropic-compaction.1.json and anthropic-compaction.1.chunks.txt (claude-opus-4-6; only
 *   the usage objects, the model and the stop reason are repeated here, the text is ours);
 * - the one-hour writes: a real Claude Code 2.1.38 log in
 *   ../shared/fixtures/transcripts/claude-code/spotter-create-beads-opus46.jsonl (read in place).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { callCost } from '../models/pricing.js';
import { sharedPath } from '../test-support/corpus.js';
import { sendJson, sendSse } from '../test-support/loopback-server.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { createAnthropic } from './anthropic.js';
import type { AnthropicUsage } from './anthropic-api-types.js';
import { anthropicUsage } from './anthropic-usage.js';

const serve = useLoopbackServers();

const noCache = { cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
const iteration = (type: string, input: number, output: number) => ({
  input_tokens: input,
  output_tokens: output,
  ...noCache,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  type,
});
/** anthropic-compaction.1.json's usage: the top level is the answer's iteration alone. */
const REPLY_USAGE = {
  input_tokens: 682,
  ...noCache,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  iterations: [iteration('compaction', 60_385, 592), iteration('message', 682, 1_320)],
  output_tokens: 1_320,
};
/** Opus 4.6: $5 input, $25 output per million (the model table). */
const opus = (input: number, output: number) => (input * 5 + output * 25) / 1e6;

describe('Anthropic usage as billed', () => {
  it('sums the iterations of a reply that compacted first: 61,067 in and 1,912 out, $0.353 (not 682 / 1,320, $0.036)', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-6',
        content: [
          { type: 'compaction', content: 'Summary of the conversation.' },
          { type: 'text', text: 'The answer.' },
        ],
        stop_reason: 'end_turn',
        usage: REPLY_USAGE,
      }),
    );
    const result = await createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-opus-4-6'),
    }).send('Summarize the algorithms.');
    expect(result.usage).toMatchObject({ inputTokens: 61_067, outputTokens: 1_912 });
    expect(result.usage.costUsd).toBeCloseTo(opus(61_067, 1_912), 12);
    expect(result.usage.costUsd).toBeCloseTo(0.353135, 6);
    expect(result.text).toBe('The answer.');
  });

  it("keeps message_start's count when message_delta's is the last iteration's alone, and sums the stream's iterations", async () => {
    // anthropic-compaction.1.chunks.txt: message_start says 60,385 in; message_delta 612 in and
    // 2,819 out at the top level, with both iterations beside them.
    const events = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            model: 'claude-opus-4-6',
            id: 'msg_2',
            type: 'message',
            role: 'assistant',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 60_385, ...noCache, output_tokens: 5 },
          },
        },
      },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Streamed answer.' } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: {
            input_tokens: 612,
            ...noCache,
            output_tokens: 2_819,
            iterations: [iteration('compaction', 60_385, 522), iteration('message', 612, 2_819)],
          },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ];
    const server = await serve((_request, response) => sendSse(response, events));
    const result = await createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'x' })('claude-opus-4-6'),
      onEvent: () => {},
    }).send('Summarize the algorithms.');
    expect(result.usage).toMatchObject({ inputTokens: 60_997, outputTokens: 3_341 });
    expect(result.usage.costUsd).toBeCloseTo(opus(60_997, 3_341), 12);
    expect(result.text).toBe('Streamed answer.');
  });

  it('reads a usage object without iterations as before (an empty iterations list is no iteration)', () => {
    expect(anthropicUsage({ input_tokens: 3, output_tokens: 406, iterations: [] })).toEqual({
      inputTokens: 3,
      outputTokens: 406,
      cachedInputTokens: undefined,
    });
  });
});

const CLAUDE_CODE = sharedPath('fixtures/transcripts/claude-code/spotter-create-beads-opus46.jsonl');
if (CLAUDE_CODE === undefined)
  console.warn(
    'anthropic-billed-usage.test.ts: shared/fixtures/transcripts is not beside the checkout; one test skipped.',
  );

describe.skipIf(CLAUDE_CODE === undefined)('one-hour cache writes in a real Claude Code log', () => {
  /** The usage objects of the log's assistant records that wrote to the one-hour cache, once per message id. */
  function hourlyUsages(): AnthropicUsage[] {
    const seen = new Set<string>();
    const out: AnthropicUsage[] = [];
    for (const line of readFileSync(CLAUDE_CODE as string, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const message = (JSON.parse(line) as { message?: { id?: string; usage?: AnthropicUsage } }).message;
      const usage = message?.usage;
      if (message?.id === undefined || usage === undefined || seen.has(message.id)) continue;
      seen.add(message.id);
      if ((usage.cache_creation?.ephemeral_1h_input_tokens ?? 0) > 0) out.push(usage);
    }
    return out;
  }

  it('prices one-hour writes at 2x the input price: $0.112 on the first such reply, where 1.25x gave $0.073', () => {
    const usages = hourlyUsages();
    expect(usages.length).toBeGreaterThan(10);
    const first = anthropicUsage(usages[0]);
    // 2 plain, 17,915 read, 10,245 written for an hour, 10 out (claude-opus-4-6).
    expect(first).toMatchObject({
      inputTokens: 2 + 17_915 + 10_245,
      cachedInputTokens: 17_915,
      cacheWriteInputTokens: 10_245,
      cacheWrite1hInputTokens: 10_245,
      outputTokens: 10,
    });
    const cost = callCost('claude-opus-4-6', first) as number;
    expect(cost).toBeCloseTo((2 * 5 + 17_915 * 0.5 + 10_245 * 10 + 10 * 25) / 1e6, 12);
    expect(cost).toBeCloseTo(0.1117, 4);
    for (const usage of usages) {
      const u = anthropicUsage(usage);
      expect(u.cacheWrite1hInputTokens).toBe(usage.cache_creation?.ephemeral_1h_input_tokens);
    }
  });
});
