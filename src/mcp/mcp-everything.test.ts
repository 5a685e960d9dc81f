import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { contentText } from '../messages/content.js';
import type { ToolMessage } from '../messages/types.js';
import { npmStdioServer } from '../test-support/mcp-npm-servers.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { McpServerConfig } from './mcp-server-config.js';

/*
 * The reference server @modelcontextprotocol/server-everything (a dev dependency, run over
 * stdio as a real process): what a client that declares roots, sampling and elicitation sees of
 * it, its content kinds, its server-to-client requests, progress, resources and prompts.
 */

const measured: string[] = [];
const open: Agent[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
});
afterAll(() => console.log(`server-everything:\n${measured.map((m) => `  ${m}`).join('\n')}`));

const everything = (extra: Partial<McpServerConfig> = {}) => npmStdioServer('server-everything', [], extra);
const call = (name: string, args: object = {}, id = 'c1'): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

function agentWith(server: McpServerConfig, replies: (MockReply | string)[], onEvent?: (e: AgentEvent) => void) {
  const model = mockModel(replies);
  const agent = createAgent({ provider: model, mcpServers: [server], ...(onEvent ? { onEvent } : {}) });
  open.push(agent);
  return { agent, model };
}

/** One run in which the model calls each of `calls` at once; the results by tool name, and the model. */
async function callAll(server: McpServerConfig, calls: [string, object?][], onEvent?: (e: AgentEvent) => void) {
  const reply = { toolCalls: calls.map(([name, args = {}], i) => ({ id: `c${i}`, name, arguments: args })) };
  const { agent, model } = agentWith(server, [reply, 'done'], onEvent);
  const { messages } = await agent.send('go');
  const results = new Map<string, { content: ToolMessage['content']; text: string; isError: boolean }>();
  for (const m of messages)
    if (m.role === 'tool')
      results.set(m.toolName ?? '', { content: m.content, text: contentText(m.content), isError: m.isError === true });
  return { results, model };
}

// Each test starts server-everything (about 2 s of CPU on a busy machine), so each runs what it can in one run.
describe('server-everything over stdio', { timeout: 60_000 }, () => {
  it('with no option set: its tools, images, resources, structured content; sampling, elicitation refused', async () => {
    const { results, model } = await callAll(everything(), [
      ['get-tiny-image'],
      ['get-resource-links', { count: 2 }],
      ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
      ['get-structured-content', { location: 'New York' }],
      ['trigger-sampling-request', { prompt: 'x' }],
      ['trigger-elicitation-request'],
      ['get-roots-list'],
    ]);
    const names = (model.calls[0]?.tools ?? []).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['get-roots-list', 'trigger-sampling-request', 'trigger-elicitation-request']),
    );
    // simulate-research-query runs only as a task (the experimental tasks API), so it is left out.
    expect(names).toHaveLength(15);
    expect(names).not.toContain('simulate-research-query');
    measured.push(`tools offered: ${names.length} (16 listed; simulate-research-query runs only as a task)`);

    const parts = results.get('get-tiny-image')?.content as Exclude<ToolMessage['content'], string>;
    const image = parts.find((p) => p.type === 'image');
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(
      Buffer.from(String(image?.type === 'image' ? image.image : ''), 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    measured.push(`get-tiny-image: ${parts.map((p) => p.type).join(' + ')}`);

    expect(results.get('get-resource-links')?.text).toMatch(/\[resource link: .*<demo:\/\/resource\/[^>]+>/);
    expect(results.get('get-resource-reference')?.text).toMatch(
      /\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]\nResource 1: This is a plaintext resource/,
    );
    const structured = results.get('get-structured-content');
    expect(structured?.isError).toBe(false);
    expect(JSON.parse(structured?.text.split('\n').at(-1) ?? '')).toMatchObject({ temperature: expect.any(Number) });
    expect(results.get('trigger-sampling-request')).toMatchObject({
      isError: true,
      text: expect.stringMatching(/sampling: \{ approve \}/),
    });
    expect(results.get('trigger-elicitation-request')).toMatchObject({
      isError: true,
      text: expect.stringMatching(/onElicitation/),
    });
    expect(results.get('get-roots-list')?.text).not.toContain('file:///');
  });

  it('with sampling, elicitation, roots and a short timeoutMs: each answered, progress resetting the timeout', async () => {
    const asked: unknown[] = [];
    const seen: unknown[] = [];
    const events: AgentEvent[] = [];
    const sampler = mockModel(['a sampled answer']);
    const server = everything({
      sampling: {
        model: sampler,
        approve: (r) => asked.push(r) > 0,
      },
      onElicitation: (r) => {
        seen.push(r);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
      roots: [{ uri: 'file:///srv/project', name: 'project' }],
      timeoutMs: 1500,
    });
    const { results } = await callAll(
      server,
      [
        ['trigger-sampling-request', { prompt: 'Say hi', maxTokens: 20 }],
        ['trigger-elicitation-request'],
        ['get-roots-list'],
        ['trigger-long-running-operation', { duration: 3, steps: 6 }],
      ],
      (e) => events.push(e),
    );
    expect(results.get('trigger-sampling-request')?.text).toContain('a sampled answer');
    expect(asked[0]).toMatchObject({
      server: 'everything',
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 20,
    });
    expect(sampler.calls[0]?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('Say hi'),
    });
    expect(results.get('trigger-elicitation-request')?.text).toContain('Ada Lovelace');
    expect(seen[0]).toMatchObject({
      server: 'everything',
      message: expect.any(String),
      requestedSchema: { type: 'object' },
    });
    expect(results.get('get-roots-list')?.text).toContain('file:///srv/project');
    expect(results.get('trigger-long-running-operation')?.text).toMatch(/Long running operation completed/);
    const progress = events.filter((e) => e.type === 'mcp.progress');
    // The SDK hands notifications on a microtask later than answers: the one sent with the answer may come after it.
    const steps = progress.map((e) => (e.type === 'mcp.progress' ? e.progress : 0));
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps).toEqual([1, 2, 3, 4, 5, 6].slice(0, steps.length));
    measured.push(`a 3 s call with timeoutMs 1,500 ms: completes, ${steps.length} mcp.progress events`);
  });

  it("sampling refused when approve() says no, and answered by the agent's own model without sampling.model", async () => {
    const no = await callAll(everything({ sampling: { approve: () => false } }), [
      ['trigger-sampling-request', { prompt: 'x' }],
    ]);
    expect(no.results.get('trigger-sampling-request')).toMatchObject({
      isError: true,
      text: expect.stringMatching(/declined/),
    });
    const { agent } = agentWith(everything({ sampling: { approve: () => true } }), [
      call('trigger-sampling-request', { prompt: 'Say hi' }),
      'the agent model sampled this',
      'done',
    ]);
    const message = (await agent.send('go')).messages.at(-2) as ToolMessage;
    expect(contentText(message.content)).toContain('the agent model sampled this');
  });

  it('resources and prompts are listed and read through agent.mcp.server()', async () => {
    const { agent } = agentWith(everything(), []);
    const server = agent.mcp.server('everything');
    const resources = await server.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const text = resources.find((r) => String(r.mimeType).startsWith('text/')) as { uri: string };
    const contents = await server.readResource(text.uri);
    expect(contents[0]).toMatchObject({ uri: text.uri, text: expect.any(String) });
    expect((await server.listResourceTemplates()).length).toBeGreaterThan(0);
    const prompts = await server.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('simple-prompt');
    const prompt = await server.getPrompt('simple-prompt');
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: expect.any(String) });
    expect(agent.mcp.servers).toEqual(['everything']);
    expect(() => agent.mcp.server('nope')).toThrow(/no MCP server has that name; the agent's are 'everything'/);
    measured.push(
      `resources: ${resources.length}, prompts: ${prompts.length}, read through agent.mcp.server('everything')`,
    );
  });

  it('toolFilter: an allow list, or a function', async () => {
    const offered = async (toolFilter: McpServerConfig['toolFilter']) => {
      const { agent, model } = agentWith(everything(toolFilter === undefined ? {} : { toolFilter }), ['ok']);
      await agent.send('go');
      return (model.calls[0]?.tools ?? []).map((t) => t.name);
    };
    expect(await offered({ allow: ['echo', 'get-sum'], deny: ['get-sum'] })).toEqual(['echo']);
    const readOnly = await offered((t) => t.annotations?.readOnlyHint === true);
    expect(readOnly.length).toBeGreaterThan(0);
    expect(readOnly).not.toContain('toggle-simulated-logging');
  });
});
