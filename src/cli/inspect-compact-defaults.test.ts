import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { runCli } from './commands.js';

async function file(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-defaults-')), 't.json');
  await writeFile(path, text);
  return path;
}

describe('inspect and compact share their defaults', () => {
  it('prunes in compact what inspect said it would, with the protected tail both print', async () => {
    // 20 reads of about 3,000 tokens: the default protected tail (40,000 tokens, at most half
    // the threshold) keeps the newest ones, which a preview with no tail would count as pruned.
    const path = await file(JSON.stringify(readingTranscript(20, 3_000)));
    const a = captureIO();
    expect(await runCli(['inspect', path, '--json', '--model', 'gpt-4o'], a.io, noRun)).toBe(0);
    const report = JSON.parse(a.out.join('\n'));
    expect(report.protectedTokens).toBe(40_000);
    expect(report.protectedSource).toBe('default');
    const b = captureIO();
    expect(await runCli(['inspect', path, '--model', 'gpt-4o'], b.io, noRun)).toBe(0);
    const tail = b.out.find((l) => l.includes('protected tail'));
    expect(tail).toContain(
      'protected tail: the newest 40,000 tokens stay as they are (the default: 40,000, at most half the threshold)',
    );
    const c = captureIO();
    expect(await runCli(['compact', path, '--model', 'gpt-4o'], c.io, noRun)).toBe(0);
    expect(c.err).toContain(
      'protected tail: the newest 40,000 tokens stay as they are (the default: 40,000, at most half the threshold)',
    );
    const line = c.err.find((l) => l.includes('tool results pruned')) ?? '';
    const pruned = Number(/([\d,]+) tool results pruned/.exec(line)?.[1]?.replaceAll(',', ''));
    expect(pruned).toBe(report.prune.results);
    expect(pruned).toBeGreaterThan(0);
    expect(pruned).toBeLessThan(19);
    const after = Number(/-> ([\d,]+) tokens/.exec(line)?.[1]?.replaceAll(',', ''));
    expect(after).toBe(report.prune.tokensAfter);
    // "after summarizing" is the compactor once the window fills: compact with a window of the transcript's size.
    const d = captureIO();
    const full = ['--strategy', 'compactor', '--context-window', String(report.tokens)];
    expect(await runCli(['compact', path, '--model', 'gpt-4o', ...full], d.io, noRun)).toBe(0);
    const summarized = d.err.find((l) => l.startsWith('compactor:')) ?? '';
    expect(Number(/-> ([\d,]+) tokens/.exec(summarized)?.[1]?.replaceAll(',', ''))).toBe(report.summarize.tokensAfter);
    expect(report.summarize.messagesSummarized).toBeGreaterThan(0);
  });

  it('takes the model a request body names in compact too', async () => {
    const path = await file(JSON.stringify({ model: 'gpt-4o-mini', messages: readingTranscript(2) }));
    const a = captureIO();
    expect(await runCli(['inspect', path, '--json'], a.io, noRun)).toBe(0);
    expect(JSON.parse(a.out.join('\n'))).toMatchObject({ model: 'gpt-4o-mini', modelSource: 'file' });
  });
});
