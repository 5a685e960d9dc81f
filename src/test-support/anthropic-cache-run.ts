import type { CreateAgentOptions } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import type { RunUsage } from '../contracts/run-usage.js';
import { createAnthropic } from '../providers/anthropic.js';
import { AnthropicCacheModel, type AnthropicCacheUsage } from './anthropic-cache-model.js';
import { type ReceivedRequest, sendJson, startLoopbackServer } from './loopback-server.js';
import { readFileTool } from './tool-loop-chat.js';

/** What {@link runAnthropicCacheRun} saw: the run's usage and every request body the server received. */
export interface AnthropicCacheRun {
  usage: RunUsage;
  requests: ReceivedRequest[];
  /** The usage the cache model gave each request, in order. */
  cache: AnthropicCacheUsage[];
  /** For each request, the longest prefix the cache held before the first block it changed: the most it could read. */
  best: number[];
}

/**
 * The same multi-step Anthropic run every time, against a loopback server that reports
 * usage the way Anthropic does (AnthropicCacheModel): `steps` tool calls, each result about
 * 8,169 characters (about 2,900 tokens) of file text, then a final answer. Used to compare bills before and after.
 * `agent` adds createAgent() options (compaction, say).
 */
export async function runAnthropicCacheRun(
  steps: number,
  options: Parameters<typeof createAnthropic>[0] = {},
  agentOptions: Pick<CreateAgentOptions, 'compaction'> & {
    /** Each reply opens with a signed thinking block (about 120 tokens), which the provider sends back. */
    thinking?: boolean;
  } = {},
): Promise<AnthropicCacheRun> {
  const { thinking, ...withAgent } = agentOptions;
  const cache = new AnthropicCacheModel();
  const usages: AnthropicCacheUsage[] = [];
  const best: number[] = [];
  let previous: Record<string, unknown> | undefined;
  let n = 0;
  const server = await startLoopbackServer((request, response) => {
    const body = request.body as Record<string, unknown>;
    best.push(cache.longestCachedBefore(body, AnthropicCacheModel.firstChange(previous, body)));
    previous = body;
    const usage = cache.accept(body);
    usages.push(usage);
    n++;
    const thought =
      thinking === true
        ? [
            {
              type: 'thinking',
              thinking: `Step ${n}: ${'the next file may hold the config we need; '.repeat(12)}`,
              signature: `sig-${n}`,
            },
          ]
        : [];
    const content = [
      ...thought,
      ...(n <= steps
        ? [{ type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: `src/file-${n}.ts` } }]
        : [{ type: 'text', text: 'Done: every file was read.' }]),
    ];
    sendJson(response, 200, {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content,
      stop_reason: n <= steps ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { ...usage, output_tokens: 40 },
    });
  });
  try {
    const readFile = readFileTool();
    const agent = createAgent({
      provider: createAnthropic({ baseURL: server.url, apiKey: 'test', ...options })('claude-sonnet-4-5'),
      instructions: `You are a careful engineer. Read the files you are asked about. ${'Follow the house rules. '.repeat(200)}`,
      tools: [readFile],
      limits: { maxSteps: steps + 5 },
      ...withAgent,
    });
    const result = await agent.send(`Read src/file-1.ts to src/file-${steps}.ts, one at a time.`);
    return { usage: result.usage, requests: server.requests, cache: usages, best };
  } finally {
    await server.close();
  }
}
