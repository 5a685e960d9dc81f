import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { runCli } from '../cli/commands.js';
import { readTranscriptFile } from '../cli/transcript-file.js';
import { compactMessages } from '../compaction/compact-messages.js';
import { tool } from '../executor/tool.js';
import type { TranscriptRepair } from '../messages/repair.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { mockModel } from '../testing/mock-model.js';
import { fromOpenAIChat } from './from-openai-chat.js';
import { fromTauBench } from './from-tau-bench.js';
import { detectFormat } from './transcript-format.js';

const call = (id: string, command: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }],
});
const reply = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content });

/** How a gpt-4o tau-bench run reuses an id: the same id again once its first call was answered. */
const REUSED = [
  { role: 'user', content: 'Cancel order #1 and #2.' },
  call('call_A', 'cancel 1'),
  reply('call_A', 'cancelled 1'),
  call('call_A', 'cancel 2'),
  reply('call_A', 'cancelled 2'),
  { role: 'assistant', content: 'Both are cancelled.' },
];

async function temp(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-quirks-'));
}

describe('the quirks of real logs', () => {
  it('pairs a call id reused after its earlier call was answered with the latest open call', () => {
    const messages = fromOpenAIChat(REUSED);
    expect(
      messages.map((m) => (m.role === 'assistant' ? m.toolCalls?.[0]?.id : m.role === 'tool' ? m.toolCallId : m.role)),
    ).toEqual(['user', 'call_A', 'call_A', 'call_A_3', 'call_A_3', undefined]);
    expect(messages[4]).toMatchObject({ role: 'tool', content: 'cancelled 2' });
  });

  it('still refuses an id reused while its earlier call waits for its result, and names repairTranscript()', () => {
    const broken = [REUSED[0], call('call_A', 'cancel 1'), call('call_A', 'cancel 2'), reply('call_A', 'cancelled')];
    expect(() => fromOpenAIChat(broken)).toThrow(
      /messages\[1\] makes the call 'call_A', which has no result .*repairTranscript\(\)/,
    );
  });

  it('reads the tau-bench shape of it: every trajectory of a results file, ids reused after their answers included', () => {
    const results = [0, 1].map((task) => ({ task_id: task, reward: 1, info: {}, traj: REUSED }));
    expect(fromTauBench(results, { entry: 1 }).messages).toHaveLength(6);
  });

  it('repairs on { repair: true } and says what it changed, keeping a newest turn that still waits', () => {
    const changes: TranscriptRepair[] = [];
    const input = [
      REUSED[0],
      reply('ghost', 'no call made this'),
      call('c1', 'ls'),
      reply('c1', 'a.ts'),
      call('c2', 'cat a.ts'),
    ];
    expect(() => fromOpenAIChat(input)).toThrow(/messages\[1\] is a result of call 'ghost'/);
    const messages = fromOpenAIChat(input, { repair: true, onRepair: (c) => changes.push(...c) });
    expect(changes.map((c) => c.description)).toEqual([
      "kept a result of call 'ghost', which no assistant message makes, as a user note",
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant']);
  });

  it('lousho compact --repair applies repairTranscript() and prints each change', async () => {
    const dir = await temp();
    const path = join(dir, 'broken.json');
    await writeFile(path, JSON.stringify([REUSED[0], reply('ghost', 'x'), call('c1', 'ls'), reply('c1', 'a.ts')]));
    const refused = captureIO();
    expect(await runCli(['compact', path], refused.io, noRun)).toBe(1);
    const cli = captureIO();
    expect(await runCli(['compact', path, '--repair'], cli.io, noRun)).toBe(0);
    expect(cli.err[0]).toBe(
      "repaired messages[1]: kept a result of call 'ghost', which no assistant message makes, as a user note",
    );
    expect(JSON.parse(cli.out.join('\n'))).toHaveLength(4);
  });

  it('keeps a newest assistant turn that awaits its results as it is, in the converters and compactMessages()', async () => {
    const big = 'x '.repeat(20_000);
    const chat = [REUSED[0], call('c1', 'cat big'), reply('c1', big), call('c2', 'echo COMPLETE_TASK')];
    const messages = fromOpenAIChat(chat);
    expect(messages.at(-1)).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'echo COMPLETE_TASK' } }],
    });
    const { messages: compacted, prunedToolCallIds } = await compactMessages(messages, { protectedTokens: 0 });
    expect(prunedToolCallIds).toEqual(['c1']);
    expect(compacted.at(-1)).toEqual(messages.at(-1));
  });
});

describe('detection by positive signature', () => {
  it('takes records as Responses items only by their known item types', () => {
    expect(detectFormat([{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }])).toBe(
      'openai-responses',
    );
    expect(detectFormat([{ type: 'summary', summary: 'Setup', leafUuid: 'u' }])).toBeUndefined();
    expect(
      detectFormat([
        { role: 'user', content: 'hi' },
        { type: 'progress', data: {} },
      ]),
    ).toBeUndefined();
  });

  it("reads Responses items that carry an item of a type the API does not list (a Codex rollout's ghost_snapshot, as compact writes the rollout)", () => {
    const items = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] },
      { type: 'ghost_snapshot', ghost_commit: { id: 'abc', parent: 'def' } },
      { type: 'function_call', call_id: 'c', name: 'shell', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: 'ok' },
    ];
    expect(detectFormat(items)).toBe('openai-responses');
    // A stray record beside messages no format is decided by stays unknown.
    expect(detectFormat([{ role: 'user', content: 'hi' }, { type: 'ghost_snapshot' }])).toBeUndefined();
  });

  it('refuses a file of records no format has, with exit 2, in one line naming the next step', async () => {
    const dir = await temp();
    const path = join(dir, 'events.jsonl');
    await writeFile(path, '{"type":"summary","summary":"Setup"}\n{"type":"file-history-snapshot","snapshot":{}}\n');
    const cli = captureIO();
    expect(await runCli(['inspect', path], cli.io, noRun)).toBe(2);
    expect(cli.err).toEqual([
      `LOUSHO_TRANSCRIPT_UNRECOGNIZED: ${path} holds no messages: its records have no role and no known item type. See \`lousho formats\` for what is read; --from names a format.`,
    ]);
  });
});

describe("this package's own session logs", () => {
  it('reads the log FileSessionStore writes, replayed as the session reads it', async () => {
    const dir = await temp();
    const ls = tool({ name: 'ls', parameters: { type: 'object' }, execute: async () => 'a.ts' });
    const provider = mockModel([{ toolCalls: [{ id: 'c1', name: 'ls' }] }, 'One file.', 'Bye.']);
    const session = createAgent({ provider, tools: [ls] }).session({
      id: 'run-1',
      store: new FileSessionStore({ dir }),
    });
    await session.send('List the files.');
    await session.send('Thanks.');
    const [log] = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
    const path = join(dir, log as string);
    // Each line is the store's framing (the version it follows) and then the entry: a JSON array of records.
    expect((await readFile(path, 'utf8')).split('\n')[0]).toMatch(/\[\{"type":"messages"/);
    const { messages, source } = await readTranscriptFile(path);
    expect(source.log).toBe('a FileSessionStore log');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(messages.at(-1)).toMatchObject({ content: 'Bye.' });
  });
});
