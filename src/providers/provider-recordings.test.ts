/**
 * Every real provider recording in ../shared/fixtures/provider-recordings (see its two
 * SOURCE.md files), one test per file, replayed byte for byte on loopback (a chunks file framed
 * as its vendor streams it) and read by the real client: the answer text, the tool calls, the
 * usage, the reasoning kept apart from the answer, or the error. The table below is the
 * expectation of each file, read off the recording itself; a file added to the folder without
 * a row fails the coverage test, so a regression names its file.
 */
import { describe, expect, it } from 'vitest';
import type { Usage } from '../contracts/usage.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { type RecordingClient, recordingFiles, replayRecording } from '../test-support/recording-replay.js';
import { RECORDINGS } from '../test-support/recordings.js';

if (RECORDINGS === undefined)
  console.warn('provider-recordings.test.ts: shared/fixtures/provider-recordings is not beside the checkout; skipped.');

const serve = useLoopbackServers();

interface Expected {
  client: RecordingClient;
  /** The answer: the whole text, or its start and length for a long one. */
  text?: string | { startsWith: string; length: number };
  toolCalls?: [string, unknown][];
  usage?: Usage;
  /** The start of the reasoning, kept apart from the text ('' when the reply has none). */
  reasoning?: string;
  /** A recorded error: its code, whether it is retryable, and words of the vendor's message it repeats. */
  error?: { code: string; retryable: boolean; says: string };
  status?: number;
  interaction?: number;
}

const u = (input: number, output: number, extra: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: undefined,
  ...extra,
});
const A = 'vercel-ai/packages/anthropic/src/__fixtures__/';
const V = 'vercel-ai/packages/';
const P = 'pydantic-ai/tests/';
const weatherSF: [string, unknown] = ['weather', { location: 'San Francisco' }];
const zeroCache = { cachedInputTokens: 0, cacheWriteInputTokens: 0 };

const CASES: Record<string, Expected> = {
  [`${P}cassettes/test_model_name_suggestions/test_model_name_suggestion[anthropic].yaml.json`]: {
    client: 'anthropic',
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: false, says: 'claude-sonet-4-5' },
  },
  [`${P}cassettes/test_model_name_suggestions/test_model_name_suggestion[openai-chat].yaml.json`]: {
    client: 'chat',
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: false, says: 'gpt-5.2-proo' },
  },
  // The second exchange: after a validation error the model calls the output tool, its reasoning beside.
  [`${P}models/cassettes/test_ollama/test_ollama_cloud_tool_output.yaml.json`]: {
    client: 'chat',
    interaction: 1,
    text: '',
    toolCalls: [['final_result', { city: 'Paris', country: 'France' }]],
    usage: u(206, 194),
    reasoning: 'The conversation: user asked',
  },
  [`${P}models/cassettes/test_ollama/test_ollama_local_native_output_uses_json_schema.yaml.json`]: {
    client: 'chat',
    text: '{ "city": "Paris", "country": "France" }',
    toolCalls: [],
    usage: u(136, 15),
    reasoning: 'Okay, the user is asking for the capital of France.',
  },
  [`${P}models/cassettes/test_openrouter/test_openrouter_errors_raised.yaml.json`]: {
    client: 'chat',
    error: { code: 'LOUSHO_RATE_LIMITED', retryable: true, says: 'Provider returned error' },
  },
  [`${P}models/cassettes/test_openrouter/test_openrouter_stream_error.yaml.json`]: {
    client: 'chat',
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: false, says: 'Token limit reached' },
  },
  [`${P}models/cassettes/test_openrouter/test_openrouter_stream_with_native_options.yaml.json`]: {
    client: 'chat',
    text: { startsWith: "I'm Grok, an AI built by xAI.", length: 284 },
    toolCalls: [],
    usage: u(687, 187, { cachedInputTokens: 679, reasoningTokens: 118 }),
    reasoning: '',
  },
  [`${P}models/cassettes/test_openrouter/test_openrouter_tool_calling.yaml.json`]: {
    client: 'chat',
    text: '',
    toolCalls: [['divide', { numerator: 123, denominator: 456, on_inf: 'infinity' }]],
    usage: u(134, 43),
  },
  'vercel-ai/extracted/anthropic-overloaded-529.json': {
    client: 'anthropic',
    status: 529,
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: true, says: 'Overloaded' },
  },
  'vercel-ai/extracted/anthropic-overloaded-mid-stream.chunks.txt': {
    client: 'anthropic',
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: true, says: 'Overloaded' },
  },
  [`${A}anthropic-code-execution-20260120-prompt-cache.1.chunks.txt`]: {
    client: 'anthropic',
    text: 'The sum of the squares of the numbers 1 through 12 is **650**.',
    toolCalls: [],
    usage: u(6 + 6_289 + 3_337, 198, { cachedInputTokens: 6_289, cacheWriteInputTokens: 3_337, reasoningTokens: 0 }),
  },
  // A server-side fallback: Fable 5 read 408 tokens and declined, Opus 4.8 answered; both are billed.
  [`${A}anthropic-fallback.chunks.txt`]: {
    client: 'anthropic',
    text: 'The printing press was invented by Johannes Gutenberg around 1440.',
    toolCalls: [],
    usage: u(408 + 412, 264, {
      ...zeroCache,
      iterations: [
        { model: 'claude-fable-5', usage: u(408, 0, zeroCache) },
        { model: 'claude-opus-4-8', usage: u(412, 264, zeroCache) },
      ],
    }),
  },
  [`${A}anthropic-json-other-tool.1.chunks.txt`]: {
    client: 'anthropic',
    text: '',
    toolCalls: [weatherSF],
    usage: u(843, 28, zeroCache),
  },
  [`${A}anthropic-json-tool.1.json`]: {
    client: 'anthropic',
    text: '',
    toolCalls: [
      [
        'json',
        {
          elements: [
            { location: 'San Francisco', temperature: -5, condition: 'snowy' },
            { location: 'London', temperature: 0, condition: 'snowy' },
            { location: 'Paris', temperature: 23, condition: 'cloudy' },
            { location: 'Berlin', temperature: -9, condition: 'snowy' },
          ],
        },
      ],
    ],
    usage: u(1_151, 87, zeroCache),
  },
  [`${A}anthropic-json-tool.2.chunks.txt`]: {
    client: 'anthropic',
    text: "I'll invoke the JSON response tool.",
    toolCalls: [['json', { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] }]],
    usage: u(849, 47, zeroCache),
  },
  // The real input count is only in message_delta (61, where message_start said 43).
  [`${A}anthropic-message-delta-input-tokens.chunks.txt`]: { client: 'anthropic', text: 'pong', usage: u(61, 2) },
  [`${A}anthropic-refusal.chunks.txt`]: { client: 'anthropic', text: '', toolCalls: [], usage: u(18, 5, zeroCache) },
  [`${A}anthropic-text.chunks.txt`]: {
    client: 'anthropic',
    text: { startsWith: "Hello! I'm doing well, thank you for asking.", length: 108 },
    usage: u(12, 30, zeroCache),
  },
  [`${A}anthropic-text.json`]: {
    client: 'anthropic',
    text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
    usage: u(12, 29, zeroCache),
  },
  [`${A}anthropic-tool-no-args.chunks.txt`]: {
    client: 'anthropic',
    text: "I'll update the issue list for you.",
    toolCalls: [['updateIssueList', {}]],
    usage: u(565, 48, zeroCache),
  },
  [`${A}anthropic-tool-no-args.json`]: {
    client: 'anthropic',
    text: { startsWith: '<thinking>\nThe updateIssueList tool was provided', length: 255 },
    toolCalls: [['updateIssueList', {}]],
    usage: u(602, 93, zeroCache),
  },
  [`${V}deepseek/src/chat/__fixtures__/deepseek-tool-call.chunks.txt`]: {
    client: 'chat',
    text: '',
    toolCalls: [weatherSF],
    usage: u(339, 83, { cachedInputTokens: 320, reasoningTokens: 39 }),
    reasoning: 'The user is asking for the weather in San Francisco.',
  },
  [`${V}deepseek/src/chat/__fixtures__/deepseek-tool-call.json`]: {
    client: 'chat',
    text: '',
    toolCalls: [weatherSF],
    usage: u(339, 92, { cachedInputTokens: 320, reasoningTokens: 48 }),
    reasoning: 'The user is asking for the weather in San Francisco.',
  },
  [`${V}groq/src/__fixtures__/groq-tool-call.chunks.txt`]: {
    client: 'chat',
    text: '',
    toolCalls: [['weather', {}]],
    usage: u(210, 15),
  },
  [`${V}groq/src/__fixtures__/groq-tool-call.json`]: {
    client: 'chat',
    text: '',
    toolCalls: [['weather', {}]],
    usage: u(218, 15),
  },
  [`${V}mistral/src/__fixtures__/mistral-incremental-tool-call.chunks.txt`]: {
    client: 'chat',
    text: '',
    toolCalls: [['webSearchTool', { query: 'current Berlin weather' }]],
    usage: u(171, 14, { cachedInputTokens: 128 }),
  },
  [`${V}mistral/src/__fixtures__/mistral-tool-call.chunks.txt`]: {
    client: 'chat',
    text: '',
    toolCalls: [weatherSF],
    usage: u(124, 22),
  },
  // A gateway relaying Claude: the only call at index 1, and no usage at all (unknown, not zero).
  [`${V}openai-compatible/src/chat/__fixtures__/anthropic-fallback-tool-call.sse`]: {
    client: 'chat',
    text: 'Reading it.',
    toolCalls: [['read_file', { path: 'a.txt' }]],
    usage: { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined },
  },
  [`${V}openai/src/chat/__fixtures__/azure-model-router.1.chunks.txt`]: {
    client: 'chat',
    text: 'Capital of Denmark.',
    usage: u(15, 78, { cachedInputTokens: 0, reasoningTokens: 64 }),
  },
  [`${V}openai/src/chat/__fixtures__/openai-text.chunks.txt`]: {
    client: 'chat',
    text: { startsWith: '**Holiday Name:** Harmony Day', length: 1_724 },
    usage: u(16, 300, { cachedInputTokens: 0, reasoningTokens: 0 }),
  },
  [`${V}openai/src/chat/__fixtures__/openai-text.json`]: {
    client: 'chat',
    text: { startsWith: '**Holiday Name:** Galaxy Day', length: 1_842 },
    usage: u(16, 363, { cachedInputTokens: 0, reasoningTokens: 0 }),
  },
  [`${V}openai/src/chat/__fixtures__/reasoning-model-legacy-parameter-error.json`]: {
    client: 'chat',
    status: 400,
    error: { code: 'LOUSHO_PROVIDER_FAILED', retryable: false, says: 'max_completion_tokens' },
  },
  // xAI counts reasoning beside completion_tokens (1 here): output is 1 + 290, reasoning apart from "Hello".
  [`${V}xai/src/__fixtures__/xai-text.chunks.txt`]: {
    client: 'chat',
    text: 'Hello',
    usage: u(12, 1 + 290, { cachedInputTokens: 11, reasoningTokens: 290 }),
    reasoning: 'First, the user said',
  },
  [`${V}xai/src/__fixtures__/xai-tool-call.chunks.txt`]: {
    client: 'chat',
    text: '',
    toolCalls: [weatherSF],
    usage: u(291, 26 + 196, { cachedInputTokens: 290, reasoningTokens: 196 }),
    reasoning: 'First, the user is',
  },
};

describe.skipIf(RECORDINGS === undefined)('every recorded provider response', () => {
  it('has a row for each of the 34 recordings (a cassette counted once)', () => {
    expect(recordingFiles()).toEqual(Object.keys(CASES).sort());
    expect(recordingFiles()).toHaveLength(34);
  });

  it.each(Object.entries(CASES))('%s', async (path, expected) => {
    const out = await replayRecording(serve, path, {
      client: expected.client,
      model: expected.client === 'anthropic' ? 'claude-sonnet-4-5' : 'recorded-model',
      ...(expected.status === undefined ? {} : { status: expected.status }),
      ...(expected.interaction === undefined ? {} : { interaction: expected.interaction }),
    });
    if (expected.error !== undefined) {
      expect(out.error).toMatchObject({ code: expected.error.code, retryable: expected.error.retryable });
      expect(out.error?.message).toContain(expected.error.says);
      return;
    }
    expect(out.error).toBeUndefined();
    if (typeof expected.text === 'string') expect(out.text).toBe(expected.text);
    else if (expected.text !== undefined) {
      expect(out.text?.startsWith(expected.text.startsWith)).toBe(true);
      expect(out.text).toHaveLength(expected.text.length);
    }
    expect(out.toolCalls).toEqual(expected.toolCalls ?? []);
    expect(out.usage).toEqual(expected.usage);
    if (expected.reasoning !== undefined && expected.reasoning !== '') {
      expect(out.reasoning?.startsWith(expected.reasoning)).toBe(true);
      // The reasoning is never glued into the answer.
      expect(out.text).not.toContain(expected.reasoning);
    } else expect(out.reasoning).toBe('');
  });
});
