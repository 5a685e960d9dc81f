import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { contentText } from '../messages/content.js';
import type { Message, ToolMessage } from '../messages/types.js';
import { toAISDKPrompt } from '../providers/ai-sdk-prompt.js';
import { createAnthropic } from '../providers/anthropic.js';
import { createOpenAICompatible } from '../providers/openai-compatible.js';
import { createOpenAIResponses } from '../providers/openai-responses.js';
import { sendAnthropicMessage } from '../test-support/anthropic-sse.js';
import { sendJson } from '../test-support/loopback-server.js';
import { npmStdioServer, startEverythingHttp } from '../test-support/mcp-npm-servers.js';
import { useLoopbackServers } from '../test-support/provider-setup.js';
import { responseObject } from '../test-support/responses-server.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { McpServerConfig } from './mcp-server-config.js';

/*
 * The reference servers from npm (dev dependencies) as real processes: server-everything over
 * streamable HTTP and the legacy SSE transport (its own `streamableHttp` and `sse` modes, on a
 * loopback port), server-filesystem with roots, server-memory; and the image of
 * server-everything's get-tiny-image sent on to each provider's wire (loopback servers).
 */

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((c) => c()));
});
const serve = useLoopbackServers();

function agentWith(
  server: McpServerConfig,
  replies: (MockReply | string)[],
): { agent: Agent; model: ReturnType<typeof mockModel> } {
  const model = mockModel(replies);
  const agent = createAgent({ provider: model, mcpServers: [server] });
  cleanup.push(() => agent.close());
  return { agent, model };
}
const call = (name: string, args: object = {}): MockReply => ({ toolCalls: [{ id: 'c1', name, arguments: args }] });
const lastResult = (messages: readonly Message[]) => messages.at(-2) as ToolMessage;

describe('server-everything over HTTP', { timeout: 60_000 }, () => {
  it.each(['streamableHttp', 'sse'] as const)('%s: the same tools, and calls run', async (mode) => {
    const http = await startEverythingHttp(mode);
    cleanup.push(() => http.close());
    const server = { name: 'everything', url: http.url, ...(mode === 'sse' ? { transport: 'sse' as const } : {}) };
    const { agent, model } = agentWith(server, [call('echo', { message: `over ${mode}` }), 'done']);
    const { messages } = await agent.send('go');
    expect(contentText(lastResult(messages).content)).toBe(`Echo: over ${mode}`);
    expect(model.calls[0]?.tools).toHaveLength(15);
  });
});

describe('server-filesystem and server-memory over stdio', { timeout: 60_000 }, () => {
  it('filesystem: the roots given replace the folder it was started with, and its files are read', async () => {
    const started = await realpath(await mkdtemp(join(tmpdir(), 'lousho-fs-start-')));
    const root = await realpath(await mkdtemp(join(tmpdir(), 'lousho-fs-root-')));
    cleanup.push(
      () => rm(started, { recursive: true, force: true }),
      () => rm(root, { recursive: true, force: true }),
    );
    await writeFile(join(root, 'notes.txt'), 'the notes');
    const server = npmStdioServer('server-filesystem', [started], {
      roots: [{ uri: pathToFileURL(root).href, name: 'work' }],
    });
    // Each run calls one tool: read_text_file when asked to 'read', else list_allowed_directories.
    const model = mockModel((request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') return 'ok';
      return last?.content === 'read'
        ? call('read_text_file', { path: join(root, 'notes.txt') })
        : call('list_allowed_directories');
    });
    const agent = createAgent({ provider: model, mcpServers: [server] });
    cleanup.push(() => agent.close());
    // The server asks for the roots once it is initialized, beside our first requests: ask until it has them.
    let allowed = '';
    for (let i = 0; i < 40 && !allowed.includes(root); i++) {
      allowed = contentText(lastResult((await agent.send('go')).messages).content);
      if (!allowed.includes(root)) await new Promise((r) => setTimeout(r, 50));
    }
    expect(allowed).toBe(`Allowed directories:\n${root}`);
    expect(allowed).not.toContain(started);
    expect(contentText(lastResult((await agent.send('read')).messages).content)).toBe('the notes');
  });

  it('memory: entities created in one call are read back in the next', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-memory-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const server = npmStdioServer('server-memory', [], { env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } });
    const entity = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    const { agent } = agentWith(server, [call('create_entities', { entities: [entity] }), call('read_graph'), 'done']);
    const { messages } = await agent.send('go');
    expect(contentText(lastResult(messages).content)).toContain('wrote the first program');
  });
});

describe('an MCP image on the wire of each provider', { timeout: 60_000 }, () => {
  let transcript: Message[] = [];
  async function imageTranscript(): Promise<Message[]> {
    if (transcript.length > 0) return transcript;
    const { agent } = agentWith(npmStdioServer('server-everything'), [call('get-tiny-image'), 'seen']);
    transcript = (await agent.send('Show me the image')).messages;
    return transcript;
  }

  it('Anthropic: an image block inside the tool_result', async () => {
    const server = await serve((_r, res) =>
      sendAnthropicMessage(res, false, {
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'a logo' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 2 },
      }),
    );
    await createAgent({ provider: createAnthropic({ baseURL: server.url, apiKey: 'test' })('claude-sonnet-4-5') }).send(
      await imageTranscript(),
    );
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).toMatch(/"type":"tool_result".*"type":"image","source":\{"type":"base64","media_type":"image\/png"/);
  });

  it('OpenAI Responses: an input_image in the function_call_output', async () => {
    const server = await serve((_r, res) => sendJson(res, 200, responseObject('gpt-5', { text: 'a logo' }, 1)));
    await createAgent({
      provider: createOpenAIResponses({ baseURL: `${server.url}/v1`, apiKey: 'test' })('gpt-5'),
    }).send(await imageTranscript());
    expect(JSON.stringify(server.requests[0]?.body)).toMatch(
      /"type":"function_call_output".*"type":"input_image","image_url":"data:image\/png;base64,/,
    );
  });

  it('the AI SDK: image data in the tool result', async () => {
    const prompt = JSON.stringify(toAISDKPrompt(await imageTranscript(), 'v3'));
    expect(prompt).toMatch(/"type":"tool-result".*"type":"image-data".*"mediaType":"image\/png"/);
  });

  it('OpenAI chat completions, whose tool messages carry text only: a short note instead', async () => {
    const reply = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    };
    const server = await serve((_r, res) => sendJson(res, 200, reply));
    await createAgent({
      provider: createOpenAICompatible({ baseURL: `${server.url}/v1`, apiKey: 'test' })('gpt-4o'),
    }).send(await imageTranscript());
    const body = server.requests[0]?.body as { messages: { role: string; content: string }[] };
    const tool = body.messages.find((m) => m.role === 'tool');
    expect(tool?.content).toMatch(/\[image omitted: OpenAI chat tool messages carry text only\]/);
    expect(tool?.content.length).toBeLessThan(200);
  });
});
