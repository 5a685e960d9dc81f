import { copyFile, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedPath } from '../test-support/corpus.js';
import { runCli } from './commands.js';
import { readTranscriptFile, writeTranscript } from './transcript-file.js';

const MINI = sharedPath('fixtures/transcripts/mini-swe-agent/gemini3pro-django__django-11163.traj.json');
const TAU = sharedPath('fixtures/transcripts/tau-bench/avaljotsingh-retail-tool-calling-1task.json');
const SWE = sharedPath('fixtures/transcripts/swe-agent/sweagent-fc-gpt4o-marshmallow-1867.traj');
for (const [name, path] of [
  ['mini-swe-agent', MINI],
  ['tau-bench', TAU],
  ['swe-agent', SWE],
] as const)
  if (path === undefined)
    console.warn(
      `compact-writes-back.test.ts: the ${name} fixture of shared/fixtures/transcripts was not found; its tests are skipped.`,
    );

type Json = Record<string, unknown>;
const BIG = `${'line of a long tool result\n'.repeat(400)}`;

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-writes-back-'));
}

/** `compact <path> --out <path> --overwrite` pruning every result it may; the file as JSON after. */
async function compactInPlace(path: string): Promise<{ code: number; err: string[]; after: unknown }> {
  const cli = captureIO();
  const argv = ['compact', path, '--out', path, '--overwrite', '--protected-tokens', '0'];
  const code = await runCli(argv, cli.io, noRun);
  return { code, err: cli.err, after: JSON.parse(await readFile(path, 'utf8')) };
}

/** Every record of `after` that is not in `changed` deep-equals, and stringifies equal to, the input's. */
function expectKept(before: unknown[], after: unknown[], changed: number[]): void {
  expect(after).toHaveLength(before.length);
  after.forEach((record, i) => {
    if (changed.includes(i)) return;
    expect(record).toEqual(before[i]);
    expect(JSON.stringify(record)).toBe(JSON.stringify(before[i]));
  });
}

describe('lousho compact writes back without loss: real files', () => {
  it.skipIf(MINI === undefined)(
    'leaves a mini-swe-agent trajectory byte for byte as it was when nothing changes, and says so',
    async () => {
      const path = join(await folder(), 'run.traj.json');
      await copyFile(MINI as string, path);
      const before = await stat(path);
      const cli = captureIO();
      expect(await runCli(['compact', path, '--out', path, '--overwrite'], cli.io, noRun)).toBe(0);
      expect(cli.err.join('\n')).toMatch(
        /0 tool results pruned, 0 messages summarized; nothing changed, so .* was not written/,
      );
      expect((await readFile(path)).equals(await readFile(MINI as string))).toBe(true);
      expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
    },
  );

  it.skipIf(MINI === undefined)(
    "keeps every other record of a mini-swe-agent trajectory, `extra` included, when one message changes, and that one's `extra`",
    async () => {
      const original = JSON.parse(await readFile(MINI as string, 'utf8')) as Json & { messages: Json[] };
      const { messages, source } = await readTranscriptFile(MINI as string);
      const at = messages.findIndex((m, i) => i > 3 && m.role === 'assistant');
      const changed = messages.map((m, i) => (i === at ? { ...m, content: 'THOUGHT: (compacted)' } : m));
      const written = JSON.parse(writeTranscript(changed, source)) as Json & { messages: Json[] };
      expectKept(original.messages, written.messages, [at]);
      expect(written.messages[at]).toEqual({ ...original.messages[at], content: 'THOUGHT: (compacted)' });
      expect(Object.keys(written.messages[at] as Json)).toEqual(Object.keys(original.messages[at] as Json));
      const { messages: _m, ...rest } = original;
      expect(written).toEqual({ ...rest, messages: written.messages });
      expect(Object.keys(written)).toEqual(Object.keys(original));
    },
  );

  it.skipIf(TAU === undefined)(
    "keeps the fields of a tau-bench run's real chat records (refusal, annotations, a tool's name) through a prune",
    async () => {
      // The trajectory of the real results file, given to compact as the OpenAI chat array it is.
      const [entry] = JSON.parse(await readFile(TAU as string, 'utf8')) as { traj: Json[] }[];
      const traj = (entry as { traj: Json[] }).traj;
      const path = join(await folder(), 'traj.json');
      await writeFile(path, JSON.stringify({ task: 'retail', messages: traj, reward: 0 }));
      const { code, err, after } = await compactInPlace(path);
      expect(code).toBe(0);
      const written = after as { task: string; messages: Json[]; reward: number };
      const pruned = written.messages.flatMap((m, i) => (String(m.content).startsWith('[pruned: ') ? [i] : []));
      expect(pruned.length).toBeGreaterThan(0);
      expect(err.join('\n')).toMatch(new RegExp(`${pruned.length} tool results pruned`));
      expectKept(traj, written.messages, pruned);
      for (const i of pruned) {
        const { content: _c, ...fields } = traj[i] as Json;
        expect(written.messages[i]).toMatchObject(fields);
        expect(Object.keys(written.messages[i] as Json)).toEqual(Object.keys(traj[i] as Json));
      }
      expect(Object.keys(written)).toEqual(['task', 'messages', 'reward']);
    },
  );

  it.skipIf(TAU === undefined || SWE === undefined)(
    'still refuses --overwrite of a log it does not write back (tau-bench results, a SWE-agent trajectory)',
    async () => {
      for (const real of [TAU, SWE] as string[]) {
        const path = join(await folder(), 'log.json');
        await copyFile(real, path);
        const cli = captureIO();
        expect(await runCli(['compact', path, '--out', path, '--overwrite'], cli.io, noRun)).toBe(2);
        expect(cli.err.at(-1)).toMatch(/which lousho does not write back; .*Give --out another file\./);
        expect((await readFile(path)).equals(await readFile(real))).toBe(true);
      }
    },
  );
});

/**
 * One transcript in each format written back, with fields lousho does not read on the enclosing
 * object (`x_run`), on messages (`x_note`) and on parts (`x_part`). Constructed: the shapes are
 * those of each format's documentation (OpenAI Chat Completions `messages`, OpenAI Responses
 * `input` items, Anthropic Messages `{ system, messages }`, AI SDK ModelMessage, our Message and
 * session file); the extra fields stand for what real files add (mini-swe-agent's `extra`).
 */
const FORMATS: Record<string, { file: Json | Json[]; list: (file: Json | Json[]) => Json[] }> = {
  lousho: {
    file: [
      { role: 'system', content: 'Review.', x_note: 1 },
      { role: 'user', content: [{ type: 'text', text: 'Go.', x_part: 1 }], x_note: 2 },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: {} }], x_note: 3 },
      { role: 'tool', toolCallId: 'c1', content: BIG, x_note: 4 },
      { role: 'assistant', content: 'Done.', x_note: 5 },
    ],
    list: (f) => f as Json[],
  },
  'openai-chat': {
    file: {
      x_run: { id: 7 },
      messages: [
        { role: 'system', content: 'Review.', x_note: 1 },
        { role: 'user', content: [{ type: 'text', text: 'Go.', x_part: 1 }], x_note: 2 },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' }, x_part: 2 }],
          x_note: 3,
        },
        { role: 'tool', tool_call_id: 'c1', content: BIG, x_note: 4 },
        { role: 'assistant', content: 'Done.', x_note: 5 },
      ],
    },
    list: (f) => (f as Json).messages as Json[],
  },
  'openai-responses': {
    file: {
      model: 'gpt-4o',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go.', x_part: 1 }], x_note: 1 },
        { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{}', x_note: 2 },
        { type: 'function_call_output', call_id: 'c1', output: BIG, x_note: 3 },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.', x_part: 2 }] },
      ],
      x_run: true,
    },
    list: (f) => (f as Json).input as Json[],
  },
  anthropic: {
    file: {
      system: [{ type: 'text', text: 'Review.', x_part: 0 }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Go.', x_part: 1 }], x_note: 1 },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {}, x_part: 2 }], x_note: 2 },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: BIG, x_part: 3 }], x_note: 3 },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      ],
      x_run: 'kept',
    },
    list: (f) => (f as Json).messages as Json[],
  },
  'ai-sdk': {
    file: [
      { role: 'user', content: [{ type: 'text', text: 'Go.', x_part: 1 }], providerOptions: {}, x_note: 1 },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {}, x_part: 2 }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: BIG }, x_part: 3 },
        ],
        x_note: 2,
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], x_note: 3 },
    ],
    list: (f) => f as Json[],
  },
  session: {
    file: {
      format: 'lousho-session-1',
      messages: [
        { role: 'user', content: 'Go.', x_note: 1 },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: {} }], x_note: 2 },
        { role: 'tool', toolCallId: 'c1', content: BIG, x_note: 3 },
        { role: 'assistant', content: 'Done.' },
      ],
      x_run: [1, 2],
    },
    list: (f) => (f as Json).messages as Json[],
  },
};

describe('lousho compact writes back without loss: every format it writes back', () => {
  it.each(Object.keys(FORMATS))(
    '%s: the pruned result keeps its unread fields, every other record and the enclosing object stay as they were',
    async (format) => {
      const { file, list } = FORMATS[format] as (typeof FORMATS)[string];
      const path = join(await folder(), 't.json');
      await writeFile(path, JSON.stringify(file));
      const { code, err, after } = await compactInPlace(path);
      expect(code, err.join('\n')).toBe(0);
      expect(err.join('\n')).toMatch(/1 tool results pruned/);
      const records = list(after as Json);
      const at = records.findIndex((r) => JSON.stringify(r).includes('[pruned: '));
      expect(at).toBeGreaterThan(0);
      expectKept(list(file), records, [at]);
      // The pruned record has every field it had, and the same keys in the same order.
      const keys = (value: unknown): unknown =>
        Array.isArray(value) ? value.map(keys) : value !== null && typeof value === 'object' ? Object.keys(value) : 0;
      expect(keys(records[at])).toEqual(keys(list(file)[at]));
      expect(JSON.stringify(records[at])).toMatch(/"x_(note|part)":/);
      if (!Array.isArray(file)) {
        const { messages: _a, input: _b, ...around } = file;
        const { messages: _c, input: _d, ...kept } = after as Json;
        expect(JSON.stringify(kept)).toBe(JSON.stringify(around));
      }
    },
  );
});

describe('lousho compact writes back without loss: session files', () => {
  it('keeps saved bytes as they were saved, and --repair applies to a session file too', async () => {
    const dir = await folder();
    const path = join(dir, 's.json');
    // A session file as serializeSession() writes it: bytes as { $bytes: base64 }. The result of 'a' is logged late.
    const image = {
      type: 'image',
      image: { $bytes: Buffer.from([137, 80, 78, 71]).toString('base64') },
      mediaType: 'image/png',
    };
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Look.' }, image] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read', arguments: {} }] },
      { role: 'user', content: 'And?' },
      { role: 'tool', toolCallId: 'a', content: BIG, x_note: 1 },
      { role: 'assistant', content: 'Done.' },
    ];
    await writeFile(path, JSON.stringify({ format: 'lousho-session-1', messages }));
    const refused = captureIO();
    expect(await runCli(['compact', path], refused.io, noRun)).toBe(1);
    expect(refused.err.at(-1)).toMatch(/`lousho compact --repair` fixes this/);
    const cli = captureIO();
    const argv = ['compact', path, '--repair', '--out', path, '--overwrite', '--protected-tokens', '0'];
    expect(await runCli(argv, cli.io, noRun)).toBe(0);
    expect(cli.err[0]).toMatch(/^repaired messages\[3\]: moved the result of call 'a'/);
    const written = JSON.parse(await readFile(path, 'utf8')) as { messages: Json[] };
    expect(written.messages[0]).toEqual(messages[0]);
    expect(written.messages[2]).toMatchObject({
      toolCallId: 'a',
      x_note: 1,
      content: expect.stringMatching(/^\[pruned: /),
    });
    expect(written.messages.slice(3)).toEqual([messages[2], messages[4]]);
  });
});

describe('lousho compact writes back without loss: records moved or removed', () => {
  it('keeps the unread fields of records --repair moved, and of those around them', async () => {
    // Constructed OpenAI chat messages (the Chat Completions shape): the result of call 'b' logged after a user message.
    const call = (id: string) => ({ id, type: 'function', function: { name: 'read', arguments: '{}' } });
    const messages = [
      { role: 'user', content: 'Go.', x_note: 0 },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')], x_note: 1 },
      { role: 'tool', tool_call_id: 'a', content: 'A', x_note: 2 },
      { role: 'user', content: 'And?', x_note: 3 },
      { role: 'tool', tool_call_id: 'b', content: 'B', x_note: 4 },
      { role: 'assistant', content: 'Done.', x_note: 5 },
    ];
    const dir = await folder();
    await writeFile(join(dir, 't.json'), JSON.stringify({ messages, x_run: 1 }));
    const cli = captureIO();
    const argv = ['compact', join(dir, 't.json'), '--repair', '--out', join(dir, 'out.json')];
    expect(await runCli(argv, cli.io, noRun)).toBe(0);
    const written = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')) as { messages: Json[]; x_run: number };
    expect(written.messages).toEqual([0, 1, 2, 4, 3, 5].map((i) => messages[i]));
    expect(written.x_run).toBe(1);
  });

  it.skipIf(TAU === undefined)(
    'writes each record the compactor keeps of a tau-bench trajectory as it was in the file',
    async () => {
      const [entry] = JSON.parse(await readFile(TAU as string, 'utf8')) as { traj: Json[] }[];
      const traj = (entry as { traj: Json[] }).traj;
      const dir = await folder();
      await writeFile(join(dir, 't.json'), JSON.stringify(traj));
      const cli = captureIO();
      const argv = ['compact', join(dir, 't.json'), '--strategy', 'compactor', '--protected-tokens', '500'];
      expect(await runCli([...argv, '--context-window', '4000', '--out', join(dir, 'out.json')], cli.io, noRun)).toBe(
        0,
      );
      const written = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')) as Json[];
      expect(written.length).toBeLessThan(traj.length);
      const kept = written.filter((r) => traj.some((t) => JSON.stringify(t) === JSON.stringify(r)));
      // Everything but what the compaction wrote (a summary) is a record of the file, in the file's order.
      expect(written.length - kept.length).toBeLessThanOrEqual(1);
      const order = kept.map((r) => traj.findIndex((t) => JSON.stringify(t) === JSON.stringify(r)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(kept.some((r) => 'annotations' in r)).toBe(true);
    },
  );
});
