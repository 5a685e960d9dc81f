import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../agent/agent-types.js';
import { createAgent } from '../agent/create-agent.js';
import { runCli } from '../cli/commands.js';
import { contentText } from '../messages/content.js';
import type { ToolMessage } from '../messages/types.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { type HostileHttpServer, startHostileHttp } from '../test-support/mcp-hostile-http.js';
import { hostileStdioServer } from '../test-support/mcp-stdio-config.js';
import { secretForms } from '../test-support/secret-forms.js';
import { type MockReply, mockModel } from '../testing/mock-model.js';
import type { McpServerConfig } from './mcp-server-config.js';

/*
 * Hostile tools (src/test-support/mcp-hostile.ts over stdio, and over HTTP on loopback): names
 * no provider takes, schemas that are no schema, descriptions of a megabyte, content that is
 * not content, and credentials echoed back. Each test records what happened; the table is
 * printed at the end.
 */

const outcomes: string[] = [];
const open: (Agent | HostileHttpServer)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
  vi.restoreAllMocks();
});
afterAll(() => {
  console.log(`hostile MCP tools, ${outcomes.length} scenarios:\n${outcomes.map((o) => `  ${o}`).join('\n')}`);
});

const call = (name: string, args: object = {}, id = 'c1'): MockReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

function agentWith(server: McpServerConfig, replies: (MockReply | string)[]) {
  const model = mockModel(replies);
  const agent = createAgent({ provider: model, mcpServers: [server] });
  open.push(agent);
  return { agent, model };
}

const resultOf = (messages: readonly unknown[], id = 'c1') => {
  const found = messages.find((m) => (m as ToolMessage).toolCallId === id) as ToolMessage;
  return { text: contentText(found.content), isError: found.isError === true };
};

describe('names and schemas', () => {
  /** The names of the tools a model is offered on the first run with `server`. */
  async function offered(server: McpServerConfig): Promise<string[]> {
    const { agent, model } = agentWith(server, ['listed']);
    await agent.send('go');
    return (model.calls[0]?.tools ?? []).map((t) => t.name);
  }

  it('hostile-names: every tool gets a legal, unique name, and a call reaches the server under its own', async () => {
    const server = await hostileStdioServer('hostile-names');
    const names = await offered(server.config);
    expect(names).toHaveLength(8); // 'dup' twice is one tool
    expect(new Set(names).size).toBe(8);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain('files_read');
    const dotted = names.find((n) => n.startsWith('files_read_')) as string;
    const { agent } = agentWith(server.config, [call(dotted), 'done']);
    expect(resultOf((await agent.send('go')).messages).text).toBe('files.read ran with {}');
    expect(server.lines()).toContain('call files.read');
    outcomes.push(
      `hostile-names: 9 listed, 8 offered (a name listed twice is one), all legal and unique: ${names.join(', ')}`,
    );
  });

  it('the dots server (files.read and files_read), prefix d_: both offered, as d_files_read and d_files_read_<hash>', async () => {
    const names = await offered((await hostileStdioServer('hostile-names', { prefix: 'd_' })).config);
    expect(names).toContain('d_files_read');
    expect(names.filter((n) => n.startsWith('d_files_read_'))).toHaveLength(1);
    outcomes.push(`dots with prefix d_: ${names.filter((n) => n.startsWith('d_files')).join(' and ')}`);
  });

  it('hostile-schemas: tools whose schema is unusable are left out, said once on the console; the rest are offered', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { config } = await hostileStdioServer('hostile-schemas');
    const { agent, model } = agentWith(config, [call('self_ref', { next: {} }), 'done']);
    const result = await agent.send('go');
    expect((model.calls[0]?.tools ?? []).map((t) => t.name)).toEqual(['fine', 'self_ref']);
    expect(resultOf(result.messages).isError).toBe(false);
    const said = warn.mock.calls.map((c) => String(c[0])).join('\n');
    expect(said).toMatch(/6 tool\(s\) left out: "string_schema": its inputSchema is unusable/);
    outcomes.push(
      'hostile-schemas: 8 listed, 2 offered (type string, null, 100 deep, 2 MB, type objekt, none: left out and said)',
    );
  });

  it('huge-description: a 1,000,000-character description is cut to 10,000', async () => {
    const { config } = await hostileStdioServer('huge-description');
    const { agent, model } = agentWith(config, ['ok']);
    await agent.send('go');
    const description = model.calls[0]?.tools?.[0]?.description ?? '';
    expect(description).toHaveLength(10_006);
    expect(description.endsWith(' [cut]')).toBe(true);
    outcomes.push('huge-description: cut to 10,000 characters');
  });

  it('bad-content: content that is not a list, unknown parts, structured content that breaks its outputSchema', async () => {
    const { config } = await hostileStdioServer('bad-content');
    const replies = [
      {
        toolCalls: ['not_array', 'unknown_parts', 'wrong_structure', 'no_structure'].map((name, i) => ({
          id: `c${i}`,
          name,
          arguments: {},
        })),
      },
      'done',
    ];
    const { messages } = await agentWith(config, replies).agent.send('go');
    expect(resultOf(messages, 'c0')).toEqual({ text: '', isError: false });
    expect(resultOf(messages, 'c1').text).toBe(
      '[hologram content; not shown]\n[audio: audio/wav, 3 bytes; not shown]\n[resource link: r.txt <file:///r.txt>]\n[resource file:///e.txt]\nembedded text',
    );
    expect(resultOf(messages, 'c2')).toMatchObject({ isError: true });
    expect(resultOf(messages, 'c2').text).toMatch(/structuredContent does not match its outputSchema: .*n/);
    expect(resultOf(messages, 'c3').text).toMatch(/has an outputSchema but its result has no structuredContent/);
    outcomes.push(
      'bad-content: a string content is empty, unknown parts named, a structure breaking its outputSchema is an error result',
    );
  });
});

/** Everything a session leaves that holds what a tool returned: the transcript, the next request, the log, the report. */
async function whatASessionShows(server: McpServerConfig, replies: (MockReply | string)[]) {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-echo-'));
  try {
    const { agent, model } = agentWith(server, replies);
    const result = await agent.session({ id: 's', store: new FileSessionStore({ dir }) }).send('go');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    const logs = files.map((f) => join(f.parentPath, f.name));
    const cli = captureIO();
    const log = logs.find((p) => p.endsWith('.jsonl')) as string;
    await runCli(['report', log, '--out', join(dir, 'report.html')], cli.io, noRun);
    return [
      JSON.stringify(result.messages),
      JSON.stringify(model.calls.at(-1)?.messages),
      ...logs.map((p) => readFileSync(p, 'utf8')),
      readFileSync(join(dir, 'report.html'), 'utf8'),
      ...cli.out,
      ...cli.err,
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('credentials echoed back', () => {
  const secret = () => `tok-${randomBytes(12).toString('hex')}`;
  const replies = [
    {
      toolCalls: [
        { id: 'c1', name: 'echo_secret', arguments: {} },
        { id: 'c2', name: 'echo_secret', arguments: { fail: true } },
      ],
    },
    'done',
  ];

  it('over HTTP: the Authorization header quoted in a result and an error result is redacted everywhere', async () => {
    const key = secret();
    const server = await startHostileHttp('credential-echo');
    open.push(server);
    const texts = await whatASessionShows(
      { name: 'echo', url: server.url, headers: { authorization: `Bearer ${key}` } },
      replies,
    );
    expect(texts.join('\n')).toContain('you sent');
    const found = [...new Set(texts.flatMap((t) => secretForms(t, key)))];
    expect(found).toEqual([]);
    outcomes.push(
      'credential-echo over HTTP (header echoed in a result and an error result, 4 encodings): 0 of 2 leak',
    );
  });

  it('over stdio: a token given in env, quoted back, is redacted everywhere', async () => {
    const key = secret();
    const { config } = await hostileStdioServer('credential-echo', { env: { GITHUB_TOKEN: key, HOSTILE_SECRET: key } });
    const texts = await whatASessionShows(config, replies);
    expect(texts.join('\n')).toContain('you sent');
    expect([...new Set(texts.flatMap((t) => secretForms(t, key)))]).toEqual([]);
    outcomes.push('credential-echo over stdio (env token echoed, 4 encodings): 0 of 2 leak');
  });
});
