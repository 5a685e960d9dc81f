import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { runCli } from './commands.js';
import { COMMAND_HELP, USAGE } from './help.js';

const task = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'Task', arguments: `{"description":"${id}"}` } }],
});
const reply = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content });

/**
 * Constructed, in OpenAI chat messages (the Chat Completions `messages` shape): the order in
 * which Claude Code logs parallel Task calls, each call an assistant record of its own and a
 * subagent's result logged before the next call is (the Claude Code session fixture
 * ccviewer-nextjs-todo-orchestrator.jsonl logs three Task calls of one message this way).
 */
const PARALLEL_TASKS = [
  { role: 'user', content: 'Plan the three parts in parallel.' },
  task('t1'),
  task('t2'),
  reply('t1', 'part one planned'),
  task('t3'),
  reply('t2', 'part two planned'),
  reply('t3', 'part three planned'),
  { role: 'assistant', content: 'All three are planned.' },
];

async function file(data: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-repair-')), 'tasks.json');
  await writeFile(path, JSON.stringify(data));
  return path;
}

describe('--repair on the command line', () => {
  it('compact --repair moves each Task result to its call and invents no error result', async () => {
    const path = await file(PARALLEL_TASKS);
    const cli = captureIO();
    expect(await runCli(['compact', path, '--repair'], cli.io, noRun)).toBe(0);
    const repaired = cli.err.filter((l) => l.startsWith('repaired '));
    expect(repaired).toEqual([
      "repaired messages[3]: moved the result of call 't1' to right after its call (messages[1]): it was logged after other messages",
      "repaired messages[5]: moved the result of call 't2' to right after its call (messages[2]): it was logged after other messages",
    ]);
    const written = JSON.parse(cli.out.join('\n')) as { role: string; content: string | null; tool_call_id?: string }[];
    expect(written.map((m) => m.tool_call_id ?? m.role)).toEqual([
      'user',
      'assistant',
      't1',
      'assistant',
      't2',
      'assistant',
      't3',
      'assistant',
    ]);
    expect(written.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'part one planned',
      'part two planned',
      'part three planned',
    ]);
  });

  it("report takes --repair too and writes its page; without it the refusal names report's flag", async () => {
    const path = await file(PARALLEL_TASKS);
    const refused = captureIO();
    expect(await runCli(['report', path], refused.io, noRun)).toBe(1);
    expect(refused.err[0]).toMatch(/`lousho report --repair` fixes this/);
    expect(refused.err[0]).not.toMatch(/repairTranscript/);
    const cli = captureIO();
    const page = join(dirname(path), 'tasks.html');
    expect(await runCli(['report', path, '--repair', '--out', page], cli.io, noRun)).toBe(0);
    expect(cli.err.filter((l) => l.startsWith('repaired messages['))).toHaveLength(2);
    expect(await readFile(page, 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('inspect takes --repair too and prints each change; without it the refusal names the flag', async () => {
    const path = await file(PARALLEL_TASKS);
    const refused = captureIO();
    expect(await runCli(['inspect', path], refused.io, noRun)).toBe(1);
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(/^LOUSHO_MESSAGE_INVALID: messages\[1\] makes the call 't1', which has no result/);
    expect(refused.err[0]).toMatch(/`lousho inspect --repair` fixes this without dropping anything/);
    expect(refused.err[0]).not.toMatch(/repairTranscript/);

    const cli = captureIO();
    expect(await runCli(['inspect', path, '--repair', '--json'], cli.io, noRun)).toBe(0);
    expect(cli.err.filter((l) => l.startsWith('repaired messages['))).toHaveLength(2);
    expect(JSON.parse(cli.out.join('\n'))).toMatchObject({ messages: 8 });
  });

  it('names the --repair flag, and no library function, in the help of every command', () => {
    for (const text of [USAGE, ...Object.values(COMMAND_HELP)]) expect(text).not.toMatch(/repairTranscript/);
    expect(COMMAND_HELP.inspect).toMatch(/--repair /);
    expect(COMMAND_HELP.compact).toMatch(/--repair .*never dropped/s);
  });
});
