import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import { commandFor } from '../test-support/child-process.js';
import { rejection } from '../test-support/errors.js';
import { type McpHttpTestServer, startMcpHttpServer } from '../test-support/mcp-http-server.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { Agent } from './agent-types.js';
import { createAgent } from './create-agent.js';
import type { McpStdioServerConfig } from './mcp-server-config.js';
import { SEARCH_TOOL_NAME } from './tool-search.js';

const open: Agent[] = [];
const servers: McpHttpTestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function stdioServer(name: string, args: string[] = [], extra: Partial<McpStdioServerConfig> = {}) {
  const log = join(await mkdtemp(join(tmpdir(), 'lousho-mcp-')), 'log');
  const config: McpStdioServerConfig = {
    name,
    command: process.execPath,
    args: [...(await commandFor('mcp-stdio-server.ts')), ...args],
    env: { MCP_TEST_LOG: log },
    ...extra,
  };
  const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []);
  return { config, lines };
}

function agentWith(options: Parameters<typeof createAgent>[0]): Agent {
  const agent = createAgent(options);
  open.push(agent);
  return agent;
}

const call = (name: string, args: unknown = {}, id = 'c1'): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

/** Waits until `check` holds, reading again after each turn of the event loop (no timed wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

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
    const { config, lines } = await stdioServer('local');
    const agent = agentWith({ provider: mockModel(['ok']), mcpServers: [config] });
    await agent.send('go');
    const pid = Number(
      lines()
        .find((l) => l.startsWith('pid'))
        ?.split(' ')[1],
    );
    expect(() => process.kill(pid, 0)).not.toThrow();
    await agent.close();
    await until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it('stops before an MCP tool that needs approval and runs it once approved', async () => {
    const { config } = await stdioServer('local', [], { needsApproval: ['echo'] });
    const agent = agentWith({ provider: mockModel([call('echo', { text: 'ok?' }), 'done']), mcpServers: [config] });
    const paused = await agent.send('go');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'echo', arguments: { text: 'ok?' } }]);
    const done = await agent.send(paused.messages, { approvals: { c1: true } });
    expect(done.messages.at(-2)).toMatchObject({ toolName: 'echo', content: 'echo: ok?' });
  });

  it('finds MCP tools through tool search when the list is long', async () => {
    const { config } = await stdioServer('big', ['0', '200']);
    const seen: string[][] = [];
    const step = (request: ModelRequest, i: number): MockReply | string => {
      seen.push((request.tools ?? []).map((t) => t.name));
      if (i === 0) return call(SEARCH_TOOL_NAME, { query: 'echo the text back' }, 's1');
      if (i === 1) return call('echo', { text: 'found' }, 'e1');
      return 'ok';
    };
    const result = await agentWith({
      provider: mockModel(step),
      mcpServers: [config],
      toolSearch: { contextWindow: 16_000 },
    }).send('go');
    expect(seen[0]).toEqual([SEARCH_TOOL_NAME]);
    expect(seen[1]).toContain('echo');
    expect(result.messages.at(-2)).toMatchObject({ toolName: 'echo', content: 'echo: found' });
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
