/**
 * The committed benchmark reproduces: every deterministic section of bench/RESULTS.md (the
 * replay, its plots, the estimation accuracy, the Anthropic bill, what a long run gives a user)
 * and the README's replay summary equal a fresh run of the same code, figure for figure; only
 * timings and the line that says when a section ran are left out. A change that moves a
 * committed number fails here until `npm run bench -- <section>` writes it again. The corpus is
 * the real trajectories of ../shared/corpus (its SOURCE.md); without it those parts are skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderAccuracyMarkdown, runAccuracy } from './accuracy.js';
import { renderAnthropicBillMarkdown, runAnthropicBill, runCompactingBill } from './anthropic-bill.js';
import { corpusDir } from './corpus.js';
import { renderLongRunMarkdown, runLongRuns } from './long-run.js';
import { README_END, README_START, renderReadmeSummary } from './readme-summary.js';
import { type ReplayReport, renderReplayMarkdown, renderReplaySvg, runReplay } from './replay.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const committed = readFileSync(join(here, 'RESULTS.md'), 'utf8');
const CORPUS = corpusDir();
if (CORPUS === undefined)
  console.warn(
    'bench/results.test.ts: the corpus (../shared/corpus or $LOUSHO_CORPUS) is not there; the replay and accuracy checks are skipped.',
  );

/** A section of bench/RESULTS.md by its heading, without the line saying when it was run alone. */
function section(text: string, heading: string): string {
  const at = text.indexOf(`${heading}\n`);
  if (at < 0) throw new Error(`bench/RESULTS.md has no section "${heading}": run npm run bench -- <section>.`);
  const end = text.indexOf('\n## ', at + heading.length);
  return deterministic(text.slice(at, end < 0 ? undefined : end));
}

/** Text without what varies from run to run: run times, and when and where a section ran. */
function deterministic(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('This section:') && !/^Run time: [\d.]+ s\.$/.test(line))
    .join('\n')
    .replace(/, in [\d.]+ s\. At each step/, ', in N s. At each step')
    .trim();
}

/** The lines of a table that starts after `title` (up to the first blank line after it). */
function table(text: string, title: string): string {
  const at = text.indexOf(title);
  if (at < 0) throw new Error(`no table after "${title}"`);
  const start = text.indexOf('\n|', at);
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end).trim();
}

describe.skipIf(CORPUS === undefined)('bench/RESULTS.md and the README against a fresh replay of the corpus', () => {
  let report: ReplayReport;
  const replay = async () => {
    report ??= await runReplay();
    return report;
  };

  it('the replay section equals a fresh replay, figure for figure', async () => {
    const fresh = deterministic(renderReplayMarkdown(await replay()));
    expect(fresh).toBe(section(committed, '## Replay of real agent runs'));
  }, 120_000); // the replay of 30 trajectories under 16 policies at 3 windows: seconds, more on a loaded machine

  it('the replay plots equal fresh ones', async () => {
    const r = await replay();
    for (const window of r.windows) {
      const file = join(here, `replay-${Math.round(window / 1024)}k.svg`);
      expect(renderReplaySvg(r, window), file).toBe(readFileSync(file, 'utf8'));
    }
  }, 120_000);

  it("the README's summary equals one written from a fresh replay", async () => {
    const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');
    const start = readme.indexOf(README_START);
    const end = readme.indexOf(README_END);
    expect(start, 'the README holds the replay summary between its markers').toBeGreaterThanOrEqual(0);
    expect(readme.slice(start, end + README_END.length)).toBe(renderReadmeSummary(await replay()));
  }, 120_000);

  it('the estimation accuracy section equals a fresh run', () => {
    expect(deterministic(renderAccuracyMarkdown(runAccuracy()))).toBe(
      section(committed, '## Estimation accuracy against the provider'),
    );
  }, 60_000);
});

describe('bench/RESULTS.md against a fresh run of the code alone', () => {
  it('the Anthropic bill section equals a fresh run', async () => {
    expect(deterministic(renderAnthropicBillMarkdown(await runAnthropicBill(), await runCompactingBill()))).toBe(
      section(committed, '## The bill of an Anthropic run'),
    );
  }, 60_000);

  it("the long runs' table of what a user gets equals a fresh run of each configuration", async () => {
    const fresh = renderLongRunMarkdown(await runLongRuns({ repetitions: 1 }));
    expect(table(fresh, '**What a user gets**')).toBe(
      table(section(committed, '## Long runs'), '**What a user gets**'),
    );
  }, 300_000); // 8 configurations of 2,000 steps each, once
});
