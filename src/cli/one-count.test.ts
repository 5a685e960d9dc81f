import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedPath } from '../test-support/corpus.js';
import { savedSession } from '../test-support/report-runs.js';
import { runCli } from './commands.js';

/*
 * inspect, compact and report on the same file with the same options must give one total,
 * and inspect's "after pruning" must be what compact does. The files are real logs of
 * ../shared/fixtures/transcripts (read in place; see its SOURCE.md), one or two of each
 * format lousho reads, and the sample transcript of docs/fixtures.
 */

const FIXTURES = sharedPath('fixtures/transcripts');
if (FIXTURES === undefined)
  console.warn('one-count.test.ts: shared/fixtures/transcripts is not beside the checkout; the real logs are skipped.');

const REAL = [
  'codex-cli/codemie-rollout-gpt55-0.125.jsonl',
  'codex-cli/acidicsoil-rollout-gpt51codex-0.58.jsonl',
  'claude-code/ccviewer-nextjs-todo-orchestrator.jsonl',
  'claude-code/spotter-create-beads-opus46.jsonl',
  'opencode/darkfactory-quiet-meadow-subagents.json',
  'openhands/openhands-basic-gui-mode-claude35.json',
  'mini-swe-agent/gemini3pro-django__django-11163.traj.json',
  'swe-agent/sweagent-fc-gpt4o-marshmallow-1867.traj',
  'tau-bench/avaljotsingh-retail-tool-calling-1task.json',
];

/**
 * Logs whose written format cannot carry all that was counted: the written file holds less
 * than compact's "after", by what the format drops (checked to be less, never more).
 */
const LOSSY: Record<string, string> = {
  'opencode/darkfactory-quiet-meadow-subagents.json':
    'compact writes an opencode export as AI SDK messages, which carry no OpenAI reasoning parts',
};
const SAMPLE = fileURLToPath(new URL('../../docs/fixtures/reading.json', import.meta.url));

async function run(argv: string[]) {
  const a = captureIO();
  const code = await runCli(argv, a.io, noRun);
  expect(code, `${argv.join(' ')}: ${a.err.join('\n')}`).toBe(0);
  return a;
}

const figure = (text: string | undefined) => Number(text?.replaceAll(',', '') ?? Number.NaN);

/** The three commands' totals and compact's pruning, on one file with the same options (report takes no --protected-tokens: the total does not depend on it). */
async function threeCounts(file: string, options: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'lousho-one-count-'));
  const inspect = JSON.parse((await run(['inspect', file, '--json', ...options])).out.join('\n'));
  const compact = await run(['compact', file, '--out', join(dir, 'out.json'), ...options]);
  const line = compact.err.find((l) => l.startsWith('prune-tool-results:')) ?? '';
  const [, before, after, pruned] = /: ([\d,]+) -> ([\d,]+) tokens; ([\d,]+) tool results pruned/.exec(line) ?? [];
  // What compact wrote, read back as a user would (its format detected, no --from) and counted
  // by inspect (with the model the file named, which the written format may not carry).
  const unwritten = line.includes('was not written');
  const written = unwritten ? file : join(dir, 'out.json');
  const model = options.includes('--model') ? [] : ['--model', inspect.model as string];
  const back = JSON.parse((await run(['inspect', written, '--json', ...options, ...model])).out.join('\n'));
  const shared = options.filter((o, i) => o !== '--protected-tokens' && options[i - 1] !== '--protected-tokens');
  await run(['report', file, '--out', join(dir, 'page.html'), ...shared]);
  const page = await readFile(join(dir, 'page.html'), 'utf8');
  // What inspect prints, as a user reads it: the size now and after pruning, in the same count.
  const text = (await run(['inspect', file, ...options])).out.join('\n');
  const printed = (label: string) =>
    figure(new RegExp(`^ {2}${label}\\s+\\[[^\\]]*\\] ([\\d,]+)`, 'm').exec(text)?.[1]);
  const total = /<dt>transcript size<\/dt><dd>([\d,]+) tokens/.exec(page)?.[1];
  return {
    inspect: inspect.tokens as number,
    compact: figure(before),
    report: figure(total),
    printed: { now: printed('now'), afterPruning: printed('after pruning') },
    preview: { results: inspect.prune.results as number, tokensAfter: inspect.prune.tokensAfter as number },
    done: { results: figure(pruned), tokensAfter: figure(after) },
    written: back.tokens as number,
  };
}

describe('one count for one file', () => {
  it('inspect, compact and report give the sample transcript one total, and compact prunes what inspect previews', async () => {
    const counts = await threeCounts(SAMPLE, ['--protected-tokens', '1000']);
    expect(counts.compact).toBe(counts.inspect);
    expect(counts.report).toBe(counts.inspect);
    expect(counts.done).toEqual(counts.preview);
    expect(counts.printed).toEqual({ now: counts.inspect, afterPruning: counts.done.tokensAfter });
    expect(counts.written).toBe(counts.done.tokensAfter);
    expect(counts.done.results).toBeGreaterThan(0);
  });

  it('gives a FileSessionStore log one total in all three commands: the transcript it ends with', async () => {
    // A session saved by a scripted run (test-support/report-runs.ts): 2 turns of 30 reads, compacted as it went.
    const run = await savedSession(await mkdtemp(join(tmpdir(), 'lousho-one-count-session-')), 2, 30, 12_000);
    const counts = await threeCounts(run.log, ['--model', 'gpt-4o', '--protected-tokens', '3000']);
    expect(counts.compact).toBe(counts.inspect);
    expect(counts.report).toBe(counts.inspect);
    expect(counts.done).toEqual(counts.preview);
    expect(counts.written).toBe(counts.done.tokensAfter);
  }, 120_000);

  const cases: { file: string; options: string[] }[] = REAL.flatMap((file) => [
    { file, options: [] },
    { file, options: ['--protected-tokens', '2000', '--model', 'gpt-4o'] },
  ]);
  it.skipIf(FIXTURES === undefined).for(cases)(
    'gives $file one total in all three commands ($options), and inspect previews what compact does',
    { timeout: 60_000 },
    async ({ file, options }) => {
      const counts = await threeCounts(join(FIXTURES as string, file), options);
      expect(counts.compact, 'compact').toBe(counts.inspect);
      expect(counts.report, 'report').toBe(counts.inspect);
      expect(counts.done, 'pruned').toEqual(counts.preview);
      expect(counts.printed, 'the figures inspect prints').toEqual({
        now: counts.inspect,
        afterPruning: counts.done.tokensAfter,
      });
      const lossy = LOSSY[file];
      if (lossy === undefined) expect(counts.written, 'the file compact wrote').toBe(counts.done.tokensAfter);
      else {
        console.log(
          `${file}: the file written counts ${counts.written}, compact's after ${counts.done.tokensAfter}: ${lossy}`,
        );
        expect(counts.written).toBeLessThan(counts.done.tokensAfter);
      }
    },
  );
});
