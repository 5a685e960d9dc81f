import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { isRunning, stdioMcpServer, until } from '../test-support/mcp-stdio-config.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';

/*
 * Who ends an MCP server: agent.close() ends every server the agent started, its sessions'
 * included; a session's close() (or the end of its `await using` block) ends the servers its
 * turns started, and only those.
 */

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const echo = (text: string): MockReply => ({ toolCalls: [{ id: `c_${text}`, name: 'echo', arguments: { text } }] });

async function agentWithServer(replies: (MockReply | string)[]) {
  const server = await stdioMcpServer('local');
  const agent = createAgent({ provider: mockModel(replies), mcpServers: [server.config] });
  agents.push(agent);
  return { agent, server };
}

describe('the end of a session’s use', () => {
  it("session.close() ends the server its turns started and leaves the agent's own running", async () => {
    const { agent, server } = await agentWithServer(['agent turn', echo('s'), 'session turn']);
    await agent.send('go');
    const session = agent.session();
    const result = await session.send('go');
    expect(result.messages.at(-2)).toMatchObject({ role: 'tool', content: 'echo: s' });
    expect(server.pids()).toHaveLength(2);
    const [agentPid = -1, sessionPid = -1] = server.pids();
    await session.close();
    await until(() => !isRunning(sessionPid));
    expect(isRunning(agentPid)).toBe(true);
    await session.close(); // a second close is a no-op
  });

  it('`await using` ends the session’s server at the end of the block', async () => {
    const { agent, server } = await agentWithServer([echo('a'), 'done']);
    {
      await using session = agent.session();
      await session.send('go');
      expect(isRunning(server.pids()[0] ?? -1)).toBe(true);
    }
    await until(() => !isRunning(server.pids()[0] ?? -1));
  });

  it('agent.close() ends the servers of sessions that were never closed', async () => {
    const { agent, server } = await agentWithServer([echo('1'), 'one', echo('2'), 'two']);
    await agent.session().send('go');
    await agent.session().send('go');
    expect(server.pids()).toHaveLength(2);
    expect(server.pids().every(isRunning)).toBe(true);
    await agent.close();
    await until(() => !server.pids().some(isRunning));
  });

  it('a closed session starts its server again on its next turn', async () => {
    const { agent, server } = await agentWithServer([echo('1'), 'one', echo('2'), 'two']);
    const session = agent.session();
    await session.send('first');
    await session.close();
    const again = await session.send('second');
    expect(again.messages.at(-2)).toMatchObject({ role: 'tool', content: 'echo: 2' });
    expect(server.pids()).toHaveLength(2);
    expect(isRunning(server.pids()[1] ?? -1)).toBe(true);
  });

  it('`await using` on the agent ends its servers at the end of the block', async () => {
    const server = await stdioMcpServer('local');
    {
      await using agent = createAgent({ provider: mockModel([echo('x'), 'done']), mcpServers: [server.config] });
      await agent.send('go');
    }
    await until(() => server.pids().length === 1 && !isRunning(server.pids()[0] ?? -1));
  });
});
