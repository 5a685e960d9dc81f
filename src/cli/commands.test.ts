import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeSession } from '../sessions/serialize.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { type RunOptions, runCli } from './commands.js';
import { COMMAND_HELP, COMMANDS, USAGE } from './help.js';

const io = captureIO;

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-cli-')), name);
  await writeFile(path, text);
  return path;
}

describe('lousho help and version', () => {
  it('prints the usage for --help, -h and help, and exits 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const a = io();
      expect(await runCli([flag], a.io, noRun)).toBe(0);
      expect(a.out).toEqual([USAGE]);
    }
  });

  it.each(COMMANDS)('prints the help of `lousho %s --help` and exits 0 without running it', async (command) => {
    const a = io();
    expect(await runCli([command, '--help'], a.io, noRun)).toBe(0);
    expect(a.out).toEqual([COMMAND_HELP[command]]);
    expect(a.out[0]).toMatch(new RegExp(`^Usage: lousho ${command}`));
  });

  it('prints the package version', async () => {
    const a = io();
    expect(await runCli(['--version'], a.io, noRun)).toBe(0);
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(a.out).toEqual([pkg.version]);
  });
});

describe('lousho command-line mistakes', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['bogus'], /^lousho: unknown command bogus .*lousho --help/],
    ['an unknown top-level option', ['--colour'], /^lousho: unknown option --colour\. See `lousho --help`/],
    [
      'an unknown option',
      ['inspect', 'x.json', '--colour'],
      /^lousho inspect: unknown option --colour\. See `lousho inspect --help`/,
    ],
    ['a missing value', ['compact', 'x.json', '--out'], /^lousho compact: --out needs a value/],
    ['a missing file', ['inspect', '/nowhere/t.json'], /^lousho inspect: no file \/nowhere\/t\.json\. Check the path/],
    ['no file at all', ['compact'], /^lousho compact: give a transcript file/],
    ['a missing folder', ['run', '/nowhere'], /^lousho run: no folder \/nowhere\./],
    [
      'a bad strategy',
      ['compact', 'x.json', '--strategy', 'magic'],
      /^lousho compact: --strategy must be one of prune, compactor, summarize, two-phase; got magic/,
    ],
  ];
  it.each(cases)('reports %s in one line and exits 2', async (_what, argv, message) => {
    const a = io();
    expect(await runCli(argv, a.io, noRun)).toBe(2);
    expect(a.err).toHaveLength(1);
    expect(a.err[0]).toMatch(message);
    expect(a.out).toEqual([]);
  });

  it('prints typed errors with their code and exits 1', async () => {
    const bad = await file('bad.json', '[{"role":"robot"}]');
    const a = io();
    expect(await runCli(['compact', bad], a.io, noRun)).toBe(1);
    expect(a.err[0]).toMatch(/^LOUSHO_MESSAGE_INVALID: messages\[0\]/);
  });

  it('prints any other failure as one line without a stack, exit 1', async () => {
    const a = io();
    const failing = async () => {
      throw new Error('the disk is full');
    };
    expect(await runCli(['run'], a.io, failing)).toBe(1);
    expect(a.err).toEqual(['lousho: the disk is full']);
  });
});

describe('lousho inspect', () => {
  it('draws bars per role and per tool, the window and threshold, and what compaction would save', async () => {
    const path = await file('t.json', JSON.stringify(readingTranscript(5, 3_000)));
    const { out, io: cli } = io();
    expect(await runCli(['inspect', path, '--model', 'gpt-4o', '--protected-tokens', '0'], cli, noRun)).toBe(0);
    expect(out[0]).toMatch(/12 messages, [\d,]+ tokens$/);
    expect(out[1]).toContain("o200k tokenizer, gpt-4o's own: exact");
    expect(out.some((l) => /^\s+tool\s+5 msg\s+█+/.test(l))).toBe(true);
    expect(out.some((l) => /^\s+read_file\s+5 msg\s+█+/.test(l))).toBe(true);
    expect(out).toContain("Context window: 128,000 tokens (gpt-4o's), threshold | at 115,200");
    expect(out.some((l) => /after pruning .*\[█*░*\|░*\].*4 old tool results replaced/.test(l))).toBe(true);
    expect(out.at(-1)).toMatch(/costs about \$0\.\d{4} of input/);
    expect(out.join('\n')).not.toContain('\u001b[');
  });

  it('says the count is an approximation for a model whose tokenizer it does not have', async () => {
    const path = await file('t.json', JSON.stringify(readingTranscript(2)));
    const { out, io: cli } = io();
    expect(await runCli(['inspect', path, '--model', 'claude-sonnet-4-5'], cli, noRun)).toBe(0);
    expect(out[1]).toContain('o200k tokenizer as an approximation for claude-sonnet-4-5');
  });

  it('prints the numbers as JSON with --json', async () => {
    const path = await file('t.json', JSON.stringify(readingTranscript(5, 3_000)));
    const { out, io: cli } = io();
    expect(
      await runCli(['inspect', path, '--json', '--context-window', '20000', '--protected-tokens', '0'], cli, noRun),
    ).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report).toMatchObject({
      messages: 12,
      contextWindow: 20_000,
      contextWindowSource: 'option',
      thresholdTokens: 18_000,
    });
    expect(report.tokenizer).toMatchObject({ tokenizer: 'o200k', exact: true });
    expect(report.byTool).toEqual([{ name: 'read_file', messages: 5, tokens: expect.any(Number) }]);
    expect(report.prune.results).toBe(4);
    expect(report.prune.tokensAfter).toBeLessThan(report.tokens);
  });

  it('reads a session file as well', async () => {
    const path = await file('s.json', serializeSession(readingTranscript(2)));
    const { out, io: cli } = io();
    expect(await runCli(['inspect', path], cli, noRun)).toBe(0);
    expect(out[0]).toContain('6 messages');
  });
});

describe('lousho compact', () => {
  it('compacts once, writes the transcript, and reports what it did', async () => {
    const path = await file('t.json', JSON.stringify({ messages: readingTranscript(6, 3_000) }));
    const outFile = join(await mkdtemp(join(tmpdir(), 'lousho-cli-')), 'out.json');
    const { err, io: cli } = io();
    expect(await runCli(['compact', path, '--out', outFile, '--protected-tokens', '0'], cli, noRun)).toBe(0);
    const written = (JSON.parse(await readFile(outFile, 'utf8')) as { messages: { role: string; content: string }[] })
      .messages;
    expect(written).toHaveLength(14);
    expect(written.filter((m) => m.role === 'tool' && m.content.startsWith('[pruned: '))).toHaveLength(5);
    expect(err[0]).toMatch(/^compacting 14 messages of .* with the prune strategy…$/);
    expect(err[1]).toMatch(
      /^prune-tool-results: [\d,]+ -> [\d,]+ tokens; 5 tool results pruned, 0 messages summarized; written to /,
    );
  });

  it('reports the messages a summarizing strategy replaced, and shows progress on a terminal', async () => {
    const path = await file('t.json', JSON.stringify(readingTranscript(8, 3_000)));
    const status: string[] = [];
    const a = io();
    const cli = { ...a.io, status: (text: string) => status.push(text) };
    const argv = ['compact', path, '--strategy', 'compactor', '--context-window', '10000', '--protected-tokens', '0'];
    expect(await runCli(argv, cli, noRun)).toBe(0);
    expect(a.err[1]).toMatch(/^compactor: [\d,]+ -> [\d,]+ tokens; \d+ tool results pruned, 13 messages summarized$/);
    expect(status.at(-1)).toBe('');
  });
});

describe('lousho run', () => {
  it('is the default command, with or without a folder', async () => {
    const calls: RunOptions[] = [];
    const run = async (options: RunOptions) => {
      calls.push(options);
    };
    const { io: cli } = io();
    await runCli([], cli, run);
    await runCli(['run', 'src'], cli, run);
    await runCli(['src'], cli, run);
    await runCli(['--quiet'], cli, run);
    expect(calls).toEqual([{}, { folder: 'src' }, { folder: 'src' }, { quiet: true }]);
  });

  it('takes --model, --max-steps, --window, --out and --quiet, each in its help', async () => {
    const calls: RunOptions[] = [];
    const { io: cli } = io();
    const argv = [
      'run',
      'src',
      '--model',
      'ollama/qwen3:8b',
      '--max-steps',
      '12',
      '--window',
      '16_000',
      '--out',
      'p.html',
      '-q',
    ];
    expect(await runCli(argv, cli, async (o) => void calls.push(o))).toBe(0);
    expect(calls).toEqual([
      { folder: 'src', model: 'ollama/qwen3:8b', maxSteps: 12, window: 16_000, out: 'p.html', quiet: true },
    ]);
    for (const flag of ['--model', '--max-steps', '--window', '--out', '--quiet'])
      expect(COMMAND_HELP.run).toContain(flag);
  });

  it.each([
    [['run', '--max-steps', '0'], /^lousho run: --max-steps must be a whole number above 0; got 0\.$/],
    [['run', '--window', 'big'], /^lousho run: --window must be a number of tokens; got big\.$/],
    [['run', '--max-steps'], /^lousho run: --max-steps needs a value/],
  ])('refuses %j in one line, exit 2', async (argv, message) => {
    const a = io();
    expect(await runCli(argv, a.io, noRun)).toBe(2);
    expect(a.err).toHaveLength(1);
    expect(a.err[0]).toMatch(message);
  });
});
