import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import { rejection } from '../test-support/errors.js';
import { type McpHttpTestServer, startMcpHttpServer } from '../test-support/mcp-http-server.js';
import { isRunning, stdioMcpServer as stdioServer, until } from '../test-support/mcp-stdio-config.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';

const open: Agent[] = [];
const servers: McpHttpTestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function agentWith(options: Parameters<typeof createAgent>[0]): Agent {
  const agent = createAgent(options);
  open.push(agent);
  return agent;
}

const call = (name: string, args: unknown = {}, id = 'c1'): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

describe('createAgent({ mcpServers })', () => {
  it('calls a tool of a stdio MCP server and gives the model its result', async () => {
    const { config } = await stdioServer('local');
    const model = mockModel([call('echo', { text: 'hi' }), 'done']);
    const result = await agentWith({ provider: model, mcpServers: [config] }).send('go');
    expect(result.text).toBe('done');
    expect(result.messages.at(-2)).toMatchObject({ role: 'tool', toolName: 'echo', content: 'echo: hi' });
    expect(model.calls[0]?.tools?.find((t) => t.name === 'echo')?.parameters).toMatchObject({
      type: 'object',
      required: ['text'],
    });
  });

  it('lists every page of a paginated tools/list', async () => {
    const { config } = await stdioServer('paged', ['2', '5']);
    const model = mockModel(['ok']);
    await agentWith({ provider: model, mcpServers: [config] }).send('go');
    const names = (model.calls[0]?.tools ?? []).map((t) => t.name);
    expect(names).toHaveLength(11);
    expect(names).toContain('filler_4');
  });

  it('connects only when a run starts: a server that cannot start is a typed error naming it', async () => {
    const agent = agentWith({
      provider: mockModel(['never']),
      mcpServers: [{ name: 'ghost', command: join(tmpdir(), 'no-such-mcp-server') }],
    });
    const error = await rejection(agent.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED', details: { server: 'ghost' } });
    expect((error as Error).message).toContain("MCP server 'ghost'");
  });

  it('gives the model a failing call as an error result it reads', async () => {
    const { config } = await stdioServer('local');
    const model = mockModel([call('fail'), 'sorry']);
    const result = await agentWith({ provider: model, mcpServers: [config] }).send('go');
    const failed = result.messages.at(-2);
    expect(failed).toMatchObject({ role: 'tool', isError: true });
    expect(contentText(failed?.content ?? '')).toContain('the disk is full');
  });

  it("cancels a running call on the server when the run's abort signal fires", async () => {
    const { config, lines } = await stdioServer('local');
    const controller = new AbortController();
    const agent = agentWith({ provider: mockModel([call('wait'), 'never']), mcpServers: [config] });
    const run = agent.send('go', {
      abortSignal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'tool.start') setTimeout(() => controller.abort(), 50);
      },
    });
    expect(await rejection(run)).toMatchObject({ code: 'LOUSHO_ABORTED' });
    await until(() => lines().some((l) => l.startsWith('cancelled')));
  });

  it('ends the run with a typed error naming the server when the server crashes', async () => {
    const { config } = await stdioServer('fragile');
    const agent = agentWith({ provider: mockModel([call('crash'), 'never']), mcpServers: [config] });
    const error = await rejection(agent.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED', details: { server: 'fragile' } });
    expect(LoushoError.isInstance(error) && error.partialResult).toBeTruthy();
  });

  it('refuses two servers offering one tool name, and takes them with a prefix', async () => {
    const a = await stdioServer('a');
    const b = await stdioServer('b');
    const clash = agentWith({ provider: mockModel(['never']), mcpServers: [a.config, b.config] });
    const error = await rejection(clash.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_CONFIG_INVALID' });
    expect((error as Error).message).toMatch(/'echo' is offered by MCP server 'b' and by MCP server 'a'.*prefix/);
    const model = mockModel([call('b_echo', { text: 'x' }), 'ok']);
    const result = await agentWith({ provider: model, mcpServers: [a.config, { ...b.config, prefix: 'b_' }] }).send(
      'go',
    );
    expect(result.messages.at(-2)).toMatchObject({ toolName: 'b_echo', content: 'echo: x' });
  });

  it('reads the tool list again after the server says it changed', async () => {
    const { config } = await stdioServer('local');
    const model = mockModel([call('add_tool', { name: 'fresh' }), 'added', 'ok']);
    const agent = agentWith({ provider: model, mcpServers: [config] });
    await agent.send('add');
    await agent.send('again');
    expect((model.calls[2]?.tools ?? []).map((t) => t.name)).toContain('fresh');
    expect((model.calls[0]?.tools ?? []).map((t) => t.name)).not.toContain('fresh');
  });

  it('ends the stdio servers it started on agent.close()', async () => {
    const { config, pids } = await stdioServer('local');
    const agent = agentWith({ provider: mockModel(['ok']), mcpServers: [config] });
    await agent.send('go');
    const [pid] = pids();
    expect(isRunning(pid ?? -1)).toBe(true);
    await agent.close();
    await until(() => !isRunning(pid ?? -1));
  });

  it('calls a tool of a streamable-HTTP server on loopback, sending its headers', async () => {
    const server = await startMcpHttpServer();
    servers.push(server);
    const model = mockModel([call('echo', { text: 'over http' }), 'done']);
    const result = await agentWith({
      provider: model,
      mcpServers: [{ name: 'remote', url: server.url, headers: { 'x-team': 'blue' } }],
    }).send('go');
    expect(result.messages.at(-2)).toMatchObject({ toolName: 'echo', content: 'echo: over http' });
    expect(server.headers.every((h) => h['x-team'] === 'blue')).toBe(true);
  });

  it('refuses a server entry without command or url, naming it', () => {
    expect(() => createAgent({ provider: mockModel([]), mcpServers: [{ name: 'x' } as never] })).toThrow(
      /MCP server 'x' needs either command/,
    );
  });
});
