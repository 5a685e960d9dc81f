import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeSession } from '../sessions/serialize.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { runCli } from './commands.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

async function file(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-cli-')), name);
  await writeFile(path, text);
  return path;
}

const noRun = async () => {
  throw new Error('run should not be called');
};

describe('lousho inspect', () => {
  it('prints tokens per role and what pruning would save', async () => {
    const path = await file('t.json', JSON.stringify(readingTranscript(5, 3_000)));
    const { out, io: cli } = io();
    expect(await runCli(['inspect', path, '--model', 'gpt-4o'], cli, noRun)).toBe(0);
    expect(out[0]).toMatch(/12 messages, \d+ tokens by gpt-4o's tokenizer \(\d+\.\d% of its 128000-token window\)/);
    expect(out.some((l) => /^\s+tool\s+5 messages/.test(l))).toBe(true);
    expect(out.some((l) => l.includes('(4 results)'))).toBe(true);
    expect(out.at(-1)).toMatch(/costs about \$0\.\d{4} of input/);
  });

  it('reads a session file as well', async () => {
    const path = await file('s.json', serializeSession(readingTranscript(2)));
    const { out, io: cli } = io();
    expect(await runCli(['inspect', path], cli, noRun)).toBe(0);
    expect(out[0]).toContain('6 messages');
  });
});

describe('lousho compact', () => {
  it('compacts once and writes the transcript, reporting the tokens', async () => {
    const path = await file('t.json', JSON.stringify({ messages: readingTranscript(6, 3_000) }));
    const outFile = join(await mkdtemp(join(tmpdir(), 'lousho-cli-')), 'out.json');
    const { err, io: cli } = io();
    expect(await runCli(['compact', path, '--out', outFile, '--protected-tokens', '0'], cli, noRun)).toBe(0);
    const written = (JSON.parse(await readFile(outFile, 'utf8')) as { messages: { role: string; content: string }[] })
      .messages;
    expect(written).toHaveLength(14);
    expect(written.filter((m) => m.role === 'tool' && m.content.startsWith('[pruned: '))).toHaveLength(5);
    expect(err[0]).toMatch(/^prune-tool-results: \d+ -> \d+ tokens, 5 results pruned; written to /);
  });

  it('prints typed errors with their code and exits 1; bad flags exit 2 with the usage', async () => {
    const bad = await file('bad.json', '[{"role":"robot"}]');
    const a = io();
    expect(await runCli(['compact', bad], a.io, noRun)).toBe(1);
    expect(a.err[0]).toMatch(/^LOUSHO_MESSAGE_INVALID: messages\[0\]/);
    const b = io();
    expect(await runCli(['compact', bad, '--strategy', 'magic'], b.io, noRun)).toBe(1);
    expect(b.err[0]).toContain('--strategy must be prune or compactor');
    const c = io();
    expect(await runCli(['inspect', bad, '--colour'], c.io, noRun)).toBe(2);
    expect(c.err[0]).toContain('Usage:');
  });
});

describe('lousho run', () => {
  it('is the default command, with or without a folder', async () => {
    const calls: string[][] = [];
    const run = async (args: string[]) => {
      calls.push(args);
    };
    const { io: cli } = io();
    await runCli([], cli, run);
    await runCli(['run', 'src'], cli, run);
    await runCli(['src'], cli, run);
    expect(calls).toEqual([[], ['src'], ['src']]);
  });
});
