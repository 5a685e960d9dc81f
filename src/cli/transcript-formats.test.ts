import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromOpenAIChat } from '../converters/from-openai-chat.js';
import { findPairingProblem } from '../messages/validate.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { corpusDir, corpusFiles } from '../test-support/corpus.js';
import { runCli } from './commands.js';

const io = captureIO;

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-formats-'));
}

const CORPUS = corpusFiles();
if (CORPUS.length === 0) {
  console.warn(
    `transcript-formats.test.ts: the trajectory corpus was not found (${corpusDir() ?? 'set LOUSHO_CORPUS, or put shared/corpus beside the checkout'}); its test is skipped.`,
  );
}

describe.skipIf(CORPUS.length === 0)('lousho inspect and compact on the trajectory corpus', () => {
  it('read every trajectory as OpenAI chat messages in a trajectory and write it back as one, smaller and still paired', async () => {
    const dir = await tempDir();
    for (const file of CORPUS) {
      const original = JSON.parse(await readFile(file, 'utf8')) as { messages: { role: string }[] };
      const inspected = io();
      expect(await runCli(['inspect', file, '--model', 'gpt-5-mini'], inspected.io, noRun)).toBe(0);
      expect(inspected.out[2]).toBe(
        "  read as OpenAI chat messages in the messages array of a mini-swe-agent trajectory (1 message(s) with role 'exit' left out: no model reads them; kept at the end when written)",
      );
      const out = join(dir, basename(file));
      const compacted = io();
      const args = ['compact', file, '--out', out, '--protected-tokens', '4000', '--model', 'gpt-5-mini'];
      expect(await runCli(args, compacted.io, noRun)).toBe(0);
      const [, before, after] = (/([\d,]+) -> ([\d,]+) tokens/.exec(compacted.err[1] ?? '') ?? []).map((x) =>
        x?.replaceAll(',', ''),
      );
      expect(Number(after)).toBeLessThan(Number(before));
      expect(compacted.err[2]).toMatch(/^read as OpenAI chat messages .*; written as OpenAI chat messages$/);
      const written = JSON.parse(await readFile(out, 'utf8')) as { messages: { role: string }[] };
      expect(Object.keys(written)).toEqual(Object.keys(original));
      expect(written.messages).toHaveLength(original.messages.length);
      expect(written.messages.at(-1)?.role).toBe('exit');
      const sent = written.messages.slice(0, -1);
      const before_ = fromOpenAIChat(original.messages.slice(0, -1));
      expect(findPairingProblem(fromOpenAIChat(sent))).toBe(findPairingProblem(before_));
    }
  }, 300_000);
});

const CHAT = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'List the files.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: `a.ts\n${'b.ts\n'.repeat(800)}` },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c2', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c2', content: 'c.ts' },
  { role: 'assistant', content: 'Three files.' },
];

async function compactFile(name: string, text: string, ...flags: string[]) {
  const dir = await tempDir();
  const path = join(dir, name);
  await writeFile(path, text);
  const cli = io();
  const code = await runCli(['compact', path, '--protected-tokens', '0', ...flags], cli.io, noRun);
  return { code, written: cli.out.join('\n'), err: cli.err };
}

describe('lousho compact on each format', () => {
  it.each([
    ['an OpenAI chat array', 'chat.json', JSON.stringify(CHAT), 'OpenAI chat messages in a JSON array'],
    [
      'OpenAI chat JSON lines',
      'chat.jsonl',
      CHAT.map((m) => JSON.stringify(m)).join('\n'),
      'OpenAI chat messages in JSON lines',
    ],
    [
      'a Responses request body',
      'responses.json',
      JSON.stringify({
        model: 'gpt-5',
        input: [
          { role: 'user', content: 'List the files.' },
          { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: `a.ts\n${'b.ts\n'.repeat(800)}` },
          { type: 'function_call', call_id: 'c2', name: 'ls', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c2', output: 'c.ts' },
        ],
      }),
      'OpenAI Responses input items in the input array of an object',
    ],
    [
      'an Anthropic request body',
      'anthropic.json',
      JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'List the files.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'ls', input: {} }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'c1', content: `a.ts\n${'b.ts\n'.repeat(800)}` }],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'ls', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'c.ts' }] },
        ],
      }),
      'Anthropic messages in the messages array of an object',
    ],
    [
      'AI SDK ModelMessages',
      'ai-sdk.json',
      JSON.stringify([
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'ls',
              output: { type: 'text', value: `a.ts\n${'b.ts\n'.repeat(800)}` },
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c2', toolName: 'ls', input: {} }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'ls', output: { type: 'text', value: 'c.ts' } }],
        },
      ]),
      'AI SDK ModelMessages in a JSON array',
    ],
  ])('detects %s, says so, and writes the pruned transcript back in it', async (_what, name, text, said) => {
    const { code, written, err } = await compactFile(name, text);
    expect(code).toBe(0);
    expect(err[1]).toMatch(/1 tool results pruned/);
    expect(err[2]).toContain(`read as ${said}`);
    expect(written).toContain('[pruned: ls({}) result, 4005 chars; already read]');
    expect(written).not.toContain('b.ts\nb.ts');
    const shape = (t: string) => (name.endsWith('.jsonl') ? t.split('\n').map((l) => JSON.parse(l)) : JSON.parse(t));
    const input = shape(text);
    const output = shape(written);
    expect(Array.isArray(output)).toBe(Array.isArray(input));
    if (!Array.isArray(input)) expect(Object.keys(output)).toEqual(Object.keys(input));
  });

  it('writes the format --to names, and refuses an unknown one', async () => {
    const anthropic = await compactFile('chat.json', JSON.stringify(CHAT), '--to', 'anthropic');
    expect(anthropic.err[2]).toContain('written as Anthropic messages');
    const body = JSON.parse(anthropic.written) as { system: string; messages: { content: unknown }[] };
    expect(body.system).toBe('Be brief.');
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: '[pruned: ls({}) result, 4005 chars; already read]' },
    ]);
    const ours = await compactFile('chat.json', JSON.stringify(CHAT), '--to', 'lousho');
    expect(JSON.parse(ours.written)[3]).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: '[pruned: ls({}) result, 4005 chars; already read]',
    });
    const bad = await compactFile('chat.json', JSON.stringify(CHAT), '--to', 'yaml');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toContain('--to must be one of lousho, openai-chat, openai-responses, anthropic, ai-sdk');
  });

  it('names the message a format cannot read, with the fix', async () => {
    const broken = [...CHAT.slice(0, 3), { role: 'tool', content: 'no id' }];
    const { code, err } = await compactFile('broken.json', JSON.stringify(broken));
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^LOUSHO_MESSAGE_INVALID: fromOpenAIChat\(\): messages\[3\] has no tool_call_id/);
  });
});
