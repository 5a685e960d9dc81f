import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { SEARCH_TOOL_NAME } from '../agent/tool-search.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { contentText } from '../messages/content.js';
import type { ToolMessage } from '../messages/types.js';
import { startMcpHttpServer } from '../test-support/mcp-http-server.js';
import { stdioMcpServer } from '../test-support/mcp-stdio-config.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { McpServerConfig } from './mcp-server-config.js';

/*
 * MCP tools go through approvals, tool search, compaction and the result-size rule as any
 * other tool does: each test runs against the real SDK test server over stdio and over
 * streamable HTTP on loopback.
 */

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((c) => c()));
});

interface Transport {
  name: string;
  /** An mcpServers entry for the test server with `fillers` extra tools. */
  server(extra?: { fillers?: number; needsApproval?: string[]; maxResultChars?: number }): Promise<McpServerConfig>;
}

const TRANSPORTS: Transport[] = [
  {
    name: 'stdio',
    server: async ({ fillers, ...rest } = {}) =>
      (await stdioMcpServer('tools', fillers === undefined ? [] : ['0', String(fillers)], rest)).config,
  },
  {
    name: 'streamable HTTP',
    server: async ({ fillers, ...rest } = {}) => {
      const http = await startMcpHttpServer(fillers === undefined ? {} : { fillers });
      cleanup.push(() => http.close());
      return { name: 'tools', url: http.url, ...rest };
    },
  },
];

function agentWith(options: Parameters<typeof createAgent>[0]): Agent {
  const agent = createAgent(options);
  cleanup.push(() => agent.close());
  return agent;
}

const call = (name: string, args: unknown, id: string): MockReply => ({ toolCalls: [{ id, name, arguments: args }] });

describe.each(TRANSPORTS)('MCP tools over $name', (transport) => {
  it('stop before a tool that needs approval and run it once approved', async () => {
    const config = await transport.server({ needsApproval: ['echo'] });
    const agent = agentWith({
      provider: mockModel([call('echo', { text: 'ok?' }, 'c1'), 'done']),
      mcpServers: [config],
    });
    const paused = await agent.send('go');
    expect(paused.status).toBe('awaiting_approval');
    expect(paused.pendingApprovals).toEqual([{ toolCallId: 'c1', toolName: 'echo', arguments: { text: 'ok?' } }]);
    const done = await agent.send(paused.messages, { approvals: { c1: true } });
    expect(done.messages.at(-2)).toMatchObject({ toolName: 'echo', content: 'echo: ok?' });
  });

  it('are found through tool search when one server offers 200 tools, and only the search tool is sent first', async () => {
    const config = await transport.server({ fillers: 200 });
    const seen: ModelRequest[] = [];
    const step = (request: ModelRequest, i: number): MockReply | string => {
      seen.push(request);
      if (i === 0) return call(SEARCH_TOOL_NAME, { query: 'echo the text back' }, 's1');
      if (i === 1) return call('echo', { text: 'found' }, 'e1');
      return 'ok';
    };
    const result = await agentWith({
      provider: mockModel(step),
      mcpServers: [config],
      toolSearch: { contextWindow: 16_000 },
    }).send('go');
    expect(seen[0]?.tools?.map((t) => t.name)).toEqual([SEARCH_TOOL_NAME]);
    expect(seen[1]?.tools?.map((t) => t.name)).toContain('echo');
    expect(seen[1]?.tools?.length).toBeLessThan(20);
    expect(result.messages.at(-2)).toMatchObject({ toolName: 'echo', content: 'echo: found' });
  });

  it('have their large results pruned by compaction, every call keeping its id and its result', async () => {
    const config = await transport.server();
    const calls = 6;
    const step = (_: ModelRequest, i: number): MockReply | string =>
      i < calls ? call('big', { chars: 20_000 }, `big_${i}`) : 'done';
    const events: AgentEvent[] = [];
    const result = await agentWith({
      provider: mockModel(step),
      mcpServers: [config],
      compaction: { contextWindow: 16_000, protectedTokens: 2_000 },
      onEvent: (e) => events.push(e),
    }).send('read them all');
    const pruned = events.flatMap((e) => (e.type === 'compaction.done' ? e.prunedToolCallIds : []));
    expect(pruned).toContain('big_0');
    const results = result.messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(results.map((r) => r.toolCallId)).toEqual(Array.from({ length: calls }, (_, i) => `big_${i}`));
    for (const id of pruned) {
      const text = contentText(results.find((r) => r.toolCallId === id)?.content ?? '');
      expect(text).toMatch(/^\[pruned: big\(\{"chars":20000\}\) result, 20000 chars/);
    }
    // The newest result, which the model had not read yet, is whole.
    expect(contentText(results.at(-1)?.content ?? '')).toHaveLength(20_000);
  });

  it("cut a result over the server's maxResultChars with a marker", async () => {
    const config = await transport.server({ maxResultChars: 5_000 });
    const result = await agentWith({
      provider: mockModel([call('big', { chars: 50_000 }, 'b1'), 'done']),
      mcpServers: [config],
    }).send('go');
    const text = contentText(result.messages.at(-2)?.content ?? '');
    expect(text.length).toBeLessThanOrEqual(5_000);
    expect(text).toContain('[cut: this result was 50,000 characters');
  });
});
