import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import type { ToolMessage } from '../messages/types.js';
import { rejection } from '../test-support/errors.js';
import { type HostileHttpServer, startHostileHttp } from '../test-support/mcp-hostile-http.js';
import { hostileStdioServer, isRunning, until } from '../test-support/mcp-stdio-config.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { McpServerConfig } from './mcp-server-config.js';

/*
 * Hostile MCP servers (src/test-support/mcp-hostile.ts, real processes over stdio and real
 * HTTP servers on loopback) cannot hang a run, end it by a crash it cannot recover from, or
 * leak a credential. Each test records what happened; the table is printed at the end.
 * Timeouts are configured short (300-1000 ms); nothing asserts how long anything took.
 */

const outcomes: string[] = [];
const open: (Agent | HostileHttpServer)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});
afterAll(() => {
  console.log(`hostile MCP servers, ${outcomes.length} scenarios:\n${outcomes.map((o) => `  ${o}`).join('\n')}`);
});

const call = (name: string, args: object = {}, id = 'c1'): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

function agentWith(server: McpServerConfig, replies: (MockReply | string)[], onEvent?: (e: AgentEvent) => void) {
  const model = mockModel(replies);
  const agent = createAgent({ provider: model, mcpServers: [server], ...(onEvent ? { onEvent } : {}) });
  open.push(agent);
  return { agent, model };
}

async function http(scenario: Parameters<typeof startHostileHttp>[0], sse = false) {
  const server = await startHostileHttp(scenario, { sse });
  open.push(server);
  return server;
}

/** The text of the tool result answering call `id`. */
const resultOf = (messages: readonly unknown[], id = 'c1') => {
  const found = messages.find(
    (m) => (m as ToolMessage).role === 'tool' && (m as ToolMessage).toolCallId === id,
  ) as ToolMessage;
  return { text: contentText(found.content), isError: found.isError === true, content: found.content };
};

describe('lists that never end', () => {
  it.each([
    ['endless-pages', /more than 100 pages \(maxListPages\)/],
    ['same-cursor', /gave the cursor "again" twice/],
    ['huge-list', /more than 10000 entries \(maxListItems\)/],
  ] as const)('%s: refused with a typed error naming the server and the bound', async (scenario, why) => {
    const { config } = await hostileStdioServer(scenario);
    const error = await rejection(agentWith(config, ['never']).agent.send('go'));
    expect(error).toMatchObject({
      code: 'LOUSHO_MCP_SERVER_FAILED',
      details: { server: scenario, reason: 'list-too-long' },
    });
    expect(error.message).toMatch(why);
    outcomes.push(`${scenario}: LOUSHO_MCP_SERVER_FAILED (list-too-long)`);
  });

  it("endless-pages: the run's abort signal stops the listing, however many pages are allowed, and close() ends the server for good", async () => {
    const server = await hostileStdioServer('endless-pages', {
      maxListPages: 10_000_000,
      maxListItems: 10_000_000,
    });
    const controller = new AbortController();
    const { agent } = agentWith(server.config, ['never']);
    const run = agent.send('go', { abortSignal: controller.signal });
    const pages = () => server.lines().filter((l) => l.startsWith('page ')).length;
    await until(() => pages() > 0);
    controller.abort();
    expect(await rejection(run)).toMatchObject({ code: 'LOUSHO_ABORTED' });
    // The listing stopped with the run: it paged on in the background, and the agent's close()
    // right after the abort let it start the server again (a new process paging for ever).
    const atAbort = pages();
    await new Promise((r) => setTimeout(r, 500));
    expect(pages()).toBeLessThanOrEqual(atAbort + 1); // at most the page on the wire when it aborted
    await agent.close();
    const [pid] = server.pids();
    await until(() => !isRunning(pid as number));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.pids()).toHaveLength(1);
    outcomes.push(
      `endless-pages, bounds raised to 10M: LOUSHO_ABORTED when the run is aborted; the listing stops (${atAbort} pages), close() ends the one server`,
    );
  });

  it('endless-pages over HTTP: refused the same way', async () => {
    const server = await http('endless-pages');
    const error = await rejection(agentWith({ name: 'pages', url: server.url }, ['never']).agent.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED', details: { reason: 'list-too-long' } });
    outcomes.push('endless-pages over HTTP: LOUSHO_MCP_SERVER_FAILED (list-too-long)');
  });
});

describe('results of any size, on every transport', () => {
  // 12 MB: over the 10 MB the SDK's stdio transport takes. Tens of MB of JSON per test: 60 s.
  const transports = [
    ['stdio', async (extra: object) => (await hostileStdioServer('huge-result', extra)).config],
    ['HTTP (JSON)', async (extra: object) => ({ name: 'huge-result', url: (await http('huge-result')).url, ...extra })],
    [
      'HTTP (SSE)',
      async (extra: object) => ({ name: 'huge-result', url: (await http('huge-result', true)).url, ...extra }),
    ],
  ] as const;

  it.each(transports)(
    'a 12 MB result over %s is cut to 2,000,000 characters',
    { timeout: 60_000 },
    async (name, server) => {
      const { agent } = agentWith(await server({}), [call('big', { chars: 12_000_000 }), 'done']);
      const { text, isError } = resultOf((await agent.send('go')).messages);
      expect(isError).toBe(false);
      expect(text.length).toBeLessThanOrEqual(2_000_000);
      expect(text).toMatch(/\[cut: this result was 12,000,000 characters; only the first 2,000,000 are kept/);
      outcomes.push(`huge-result (12 MB) over ${name}: cut to ${text.length.toLocaleString('en-US')} characters`);
    },
  );

  it.each(transports)(
    'an answer over maxMessageBytes over %s fails its call only: the next call runs',
    { timeout: 60_000 },
    async (name, server) => {
      const config = await server({ maxMessageBytes: 1_000_000 });
      const { agent } = agentWith(config, [call('big', { chars: 3_000_000 }), call('echo', {}, 'c2'), 'done']);
      const { messages } = await agent.send('go');
      expect(resultOf(messages)).toMatchObject({ isError: true });
      expect(resultOf(messages).text).toMatch(/over maxMessageBytes \(1,000,000\), and was not read/);
      expect(resultOf(messages, 'c2')).toMatchObject({ isError: false, text: 'echo ran with {}' });
      outcomes.push(`oversized answer (3 MB, maxMessageBytes 1 MB) over ${name}: an error result, the server goes on`);
    },
  );

  it('garbage-flood: a 3 MB line of garbage over the limit fails the waiting call, the server goes on', async () => {
    const { config } = await hostileStdioServer('garbage-flood', { maxMessageBytes: 1_000_000 });
    const { agent } = agentWith(config, [call('junk'), call('echo', {}, 'c2'), 'done']);
    const { messages } = await agent.send('go');
    expect(resultOf(messages).isError).toBe(true);
    expect(resultOf(messages, 'c2').isError).toBe(false);
    outcomes.push('garbage-flood (3 MB line, no JSON): the waiting call fails, the next one runs');
  });

  it('image-bomb: an image over maxResultChars becomes a note, a small one stays an image', async () => {
    const { config } = await hostileStdioServer('image-bomb', { maxResultChars: 1_000_000 });
    const { agent } = agentWith(config, [
      call('image', { chars: 3_000_000 }),
      call('image', { chars: 800 }, 'c2'),
      'done',
    ]);
    const { messages } = await agent.send('go');
    expect(resultOf(messages).text).toMatch(/\[image left out: 3,000,000 characters, over the 1,000,000/);
    expect(resultOf(messages, 'c2').content).toEqual([
      { type: 'image', image: 'A'.repeat(800), mediaType: 'image/png' },
    ]);
    outcomes.push('image-bomb (3 MB image, maxResultChars 1M): a note; an 800-character image stays an image');
  });
});

describe('answers that never come', () => {
  it.each([
    ['slow', 'never answers'],
    ['invalid-jsonrpc', 'answers with jsonrpc "1.0"'],
    ['wrong-ids', 'answers another id'],
  ] as const)('%s (%s): the call fails after timeoutMs as an error result the model reads', async (scenario, _what) => {
    const { config } = await hostileStdioServer(scenario, { timeoutMs: 300 });
    const { agent } = agentWith(config, [call('echo'), 'done']);
    const result = await agent.send('go');
    expect(result.text).toBe('done');
    expect(resultOf(result.messages).text).toMatch(/did not answer tools\/call within 300 ms \(timeoutMs/);
    outcomes.push(`${scenario}: an error result after timeoutMs (300 ms), the run goes on`);
  });

  it('progress: each notification starts timeoutMs again, and is an mcp.progress event', async () => {
    const { config } = await hostileStdioServer('progress', { timeoutMs: 400 });
    const events: AgentEvent[] = [];
    const { agent } = agentWith(config, [call('echo'), 'done'], (e) => events.push(e));
    const { messages } = await agent.send('go');
    expect(resultOf(messages)).toMatchObject({ isError: false, text: 'done after 10 steps' });
    const progress = events.filter((e) => e.type === 'mcp.progress');
    expect(progress).toHaveLength(10);
    expect(progress[9]).toMatchObject({
      server: 'progress',
      tool: 'echo',
      toolCallId: 'c1',
      progress: 10,
      total: 10,
      step: 1,
    });
    outcomes.push('progress (1 s of progress, timeoutMs 400): the call succeeds, 10 mcp.progress events');
  });

  it('progress keeps a call alive when the run has no listeners too (progress is always asked for)', async () => {
    const { config } = await hostileStdioServer('progress', { timeoutMs: 400 });
    const { messages } = await agentWith(config, [call('echo'), 'done']).agent.send('go');
    expect(resultOf(messages)).toMatchObject({ isError: false, text: 'done after 10 steps' });
  });

  it('progress-forever: maxTotalTimeoutMs ends the call however often the server reports progress', async () => {
    const { config } = await hostileStdioServer('progress-forever', { timeoutMs: 300, maxTotalTimeoutMs: 1000 });
    const { agent } = agentWith(config, [call('echo'), 'done']);
    const { messages } = await agent.send('go');
    expect(resultOf(messages).text).toMatch(/did not answer tools\/call/);
    outcomes.push('progress-forever: an error result at maxTotalTimeoutMs (1,000 ms)');
  });

  it('never-initializes: a typed error after timeoutMs', async () => {
    const { config } = await hostileStdioServer('never-initializes', { timeoutMs: 300 });
    const error = await rejection(agentWith(config, ['never']).agent.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED', details: { reason: 'unreachable' } });
    expect(error.message).toMatch(/timed out/i);
    outcomes.push('never-initializes: LOUSHO_MCP_SERVER_FAILED (unreachable) after timeoutMs');
  });
});

describe('servers that exit', () => {
  it('crash-mid-call: the run fails with a typed error, and the next run starts the server again', async () => {
    const server = await hostileStdioServer('crash-mid-call');
    const { agent } = agentWith(server.config, [call('echo'), 'second run']);
    const error = await rejection(agent.send('go'));
    expect(error).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED', details: { reason: 'crashed' } });
    expect(LoushoError.isInstance(error) && error.partialResult).toBeTruthy();
    expect((await agent.send('again')).text).toBe('second run');
    expect(server.pids()).toHaveLength(2);
    outcomes.push('crash-mid-call: LOUSHO_MCP_SERVER_FAILED (crashed); the next run starts it again, no close()');
  });

  it('crash-after-list: a server that exited after a run is started again by the next run', async () => {
    const server = await hostileStdioServer('crash-after-list');
    const { agent } = agentWith(server.config, ['listed', call('echo'), 'done']);
    expect((await agent.send('go')).text).toBe('listed');
    await until(() => !isRunning(server.pids()[0] ?? -1));
    const { messages } = await agent.send('again');
    expect(resultOf(messages)).toMatchObject({ isError: false, text: 'echo ran with {}' });
    expect(server.pids()).toHaveLength(2);
    outcomes.push('crash-after-list: the next run starts it again and its call runs, no close()');
  });

  it('exit-at-start: a typed error on every run, none hanging', async () => {
    const { config } = await hostileStdioServer('exit-at-start');
    const { agent } = agentWith(config, ['never']);
    for (let i = 0; i < 2; i++)
      expect(await rejection(agent.send('go'))).toMatchObject({ code: 'LOUSHO_MCP_SERVER_FAILED' });
    outcomes.push('exit-at-start: LOUSHO_MCP_SERVER_FAILED on each run');
  });
});

describe('garbage, floods and requests', () => {
  it.each(['garbage-stdout', 'notification-flood', 'list-changed-loop'] as const)('%s: calls run', async (scenario) => {
    const { config } = await hostileStdioServer(scenario);
    const { agent } = agentWith(config, [call('echo'), 'done', 'again']);
    expect(resultOf((await agent.send('go')).messages)).toMatchObject({ isError: false, text: 'echo ran with {}' });
    expect((await agent.send('again')).text).toBe('again');
    outcomes.push(`${scenario}: calls run, two runs in a row`);
  });

  it('server-requests: sampling and elicitation refused saying which option answers them, roots empty', async () => {
    const server = await hostileStdioServer('server-requests');
    const { agent } = agentWith(server.config, [call('echo'), 'done']);
    await agent.send('go');
    await until(() => server.lines().filter((l) => l.startsWith('answer')).length === 3);
    const answers = server.lines().filter((l) => l.startsWith('answer'));
    expect(answers.find((a) => a.includes('"s1"'))).toMatch(/sampling: \{ approve \}/);
    expect(answers.find((a) => a.includes('"s2"'))).toMatch(/onElicitation/);
    expect(answers.find((a) => a.includes('"s3"'))).toContain('"roots":[]');
    outcomes.push('server-requests: sampling and elicitation refused with the option to set; roots/list gives []');
  });
});
