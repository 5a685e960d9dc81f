/**
 * npm run bench: every benchmark in one run, written to bench/RESULTS.md (and the plots
 * to bench/replay-<window>.svg). Needs ../shared/corpus (or LOUSHO_CORPUS) for the
 * accuracy and replay parts. `npm run bench -- replay` runs one section and replaces only its
 * part of bench/RESULTS.md; `npm run bench -- list` lists the sections.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAccuracyMarkdown, runAccuracy } from './accuracy.js';
import { renderAdversarialMarkdown, runAdversarial } from './adversarial.js';
import { renderAnthropicBillMarkdown, runAnthropicBill, runCompactingBill } from './anthropic-bill.js';
import { renderCheckpointsMarkdown, runCheckpoints } from './checkpoints.js';
import { corpusDir } from './corpus.js';
import { renderFrameworksMarkdown, runFrameworks } from './frameworks.js';
import { renderLongRunMarkdown, runLongRuns } from './long-run.js';
import { renderOverheadMarkdown, runOverhead } from './overhead.js';
import { renderReadmeSummary, withReadmeSummary } from './readme-summary.js';
import { runReplay } from './replay.js';
import { renderReplayMarkdown, renderReplaySvg } from './replay-report.js';
import { renderSessionLoadMarkdown, runSessionLoad } from './session-load.js';
import { renderWorkersMarkdown, runWorkers } from './workers.js';

const here = dirname(fileURLToPath(import.meta.url));

function commit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: here }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** The load averages over 1, 5 and 15 minutes, as "12.3, 14.0, 13.1". */
function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');
}

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Command: \`npm run bench\` (commit ${commit()})`,
    `- Load average at the start: ${loadAverage()} (1, 5 and 15 minutes)`,
    `- Machine: ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`,
  ].join('\n');
}

/** The sections that run on their own (`npm run bench -- <name>`). */
const SECTIONS: Record<string, () => Promise<string>> = {
  frameworks: async () => renderFrameworksMarkdown(await runFrameworks()),
  overhead: async () => renderOverheadMarkdown(await runOverhead({ log: (line) => console.error(line) })),
  'long-run': async () => renderLongRunMarkdown(await runLongRuns()),
  accuracy: async () => renderAccuracyMarkdown(runAccuracy()),
  adversarial: async () => renderAdversarialMarkdown(runAdversarial({ log: (line) => console.error(line) })),
  workers: async () => renderWorkersMarkdown(await runWorkers((line) => console.log(line))),
  'session-load': async () => renderSessionLoadMarkdown(await runSessionLoad((line) => console.log(line))),
  'anthropic-bill': async () => renderAnthropicBillMarkdown(await runAnthropicBill(), await runCompactingBill()),
  checkpoints: async () => renderCheckpointsMarkdown(await runCheckpoints()),
  replay: async () => {
    const replay = await runReplay();
    for (const window of replay.windows) {
      writeFileSync(join(here, `replay-${Math.round(window / 1024)}k.svg`), renderReplaySvg(replay, window));
    }
    const readme = join(here, '..', 'README.md');
    writeFileSync(readme, withReadmeSummary(readFileSync(readme, 'utf8'), renderReadmeSummary(replay)));
    return renderReplayMarkdown(replay);
  },
};

/** The sections that need the corpus (../shared/corpus or $LOUSHO_CORPUS). */
const CORPUS_SECTIONS = new Set(['accuracy', 'replay']);

/** Runs one section and puts its text in place of the section with the same heading in bench/RESULTS.md. */
async function runSection(name: string): Promise<void> {
  const section = SECTIONS[name];
  if (section === undefined) {
    const list = `the sections are ${Object.keys(SECTIONS).join(', ')} (\`npm run bench\` runs them all)`;
    if (name === 'list' || name === '--list' || name === 'help' || name === '--help') return console.log(`${list}.`);
    throw new Error(`npm run bench -- ${name}: no such section; ${list}.`);
  }
  if (CORPUS_SECTIONS.has(name) && corpusDir() === undefined)
    throw new Error(
      `npm run bench -- ${name}: needs the corpus (../shared/corpus beside the checkout, or $LOUSHO_CORPUS).`,
    );
  const before = loadAverage();
  const body = (await section()).trim();
  // The file's header names the run of the whole bench; a section run alone says when and where it ran.
  const text = `${body}\n\nThis section: \`npm run bench -- ${name}\` on ${new Date().toISOString().slice(0, 10)} at commit ${commit()}, load average ${before} before and ${loadAverage()} after (1, 5 and 15 minutes; ${cpus().length} cores).`;
  console.log(text);
  const path = join(here, 'RESULTS.md');
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const heading = text.split('\n')[0] as string;
  const at = old.indexOf(`${heading}\n`);
  const end = at < 0 ? -1 : old.indexOf('\n## ', at + heading.length);
  const next =
    at < 0 ? `${old.trimEnd()}\n\n${text}\n` : `${old.slice(0, at)}${text}\n${end < 0 ? '' : old.slice(end)}`;
  writeFileSync(path, next);
  console.log(`[bench] replaced the section "${heading.slice(3)}" of bench/RESULTS.md`);
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only !== undefined) return runSection(only);
  const started = performance.now();
  const sections: string[] = [];
  const step = (name: string) => console.log(`[bench] ${name} ...`);

  step('overhead');
  sections.push(await (SECTIONS.overhead as () => Promise<string>)());
  step('long runs');
  sections.push(await (SECTIONS['long-run'] as () => Promise<string>)());
  step('adversarial input');
  sections.push(await (SECTIONS.adversarial as () => Promise<string>)());
  step('session checkpoints');
  sections.push(await (SECTIONS.checkpoints as () => Promise<string>)());
  step('opening a long session');
  sections.push(await (SECTIONS['session-load'] as () => Promise<string>)());
  step('workers on a queue');
  sections.push(await (SECTIONS.workers as () => Promise<string>)());
  step('the bill of an Anthropic run');
  sections.push(await (SECTIONS['anthropic-bill'] as () => Promise<string>)());
  step('inside other frameworks');
  sections.push(await (SECTIONS.frameworks as () => Promise<string>)());
  if (corpusDir() === undefined) {
    sections.push(
      '## Estimation accuracy and replay\n\nSkipped: the corpus (../shared/corpus or $LOUSHO_CORPUS) was not found.',
    );
  } else {
    step('estimation accuracy');
    sections.push(await (SECTIONS.accuracy as () => Promise<string>)());
    step('replay');
    sections.push(await (SECTIONS.replay as () => Promise<string>)());
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const text = [
    '# Benchmark results',
    '',
    'Generated by `npm run bench`; do not edit by hand. Timings vary with the machine: compare the ratios.',
    '',
    machine(),
    `- Total run time: ${seconds} s`,
    '',
    ...sections.flatMap((s) => [s.trim(), '']),
  ].join('\n');
  writeFileSync(join(here, 'RESULTS.md'), text);
  console.log(`[bench] wrote bench/RESULTS.md in ${seconds} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
