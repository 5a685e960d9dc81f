import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_ENV_KEYS } from '../test-support/provider-setup.js';
import { demoProject } from '../test-support/report-runs.js';
import { colours } from './colour.js';
import { runJob } from './run-job.js';

const KEYS = [...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL'];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  for (const key of KEYS) delete process.env[key];
  // No local server answers on port 1: the scripted model drives the run.
  process.env.OLLAMA_HOST = 'http://127.0.0.1:1';
  process.env.LMSTUDIO_BASE_URL = 'http://127.0.0.1:1/v1';
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('the main job with the scripted model', () => {
  it('tells each step, each compaction with the strategy that ran, both recoveries it demonstrates, a summary, and where its report is', async () => {
    const lines: string[] = [];
    const report = join(await mkdtemp(join(tmpdir(), 'lousho-job-report-')), 'run.html');
    await runJob({ folder: await demoProject(), colours: colours(false), print: (l) => lines.push(l), out: report });
    const text = lines.join('\n');
    expect(text).toContain('a scripted model drives the agent (--model provider/model runs a real one)');
    expect(text).toMatch(/it reads data\.json, larger than the window/);
    expect(lines.filter((l) => /^step\s+\d+ \[[█░|]+\]\s+[\d,]+ \/ 24,000 \(\s*\d+%\)/.test(l)).length).toBeGreaterThan(
      5,
    );
    expect(text).toMatch(/⤷ compaction before step \d+ \(two-phase, ran (prune-tool-results|summarize)\)/);
    expect(text).toMatch(/↻ recovery at step \d+ \(context-overflow\): the provider rejected \d+ tokens/);
    expect(text).toMatch(/↻ recovery at step \d+ \(oversized-results\): .*cut 1 result\(s\)/);
    expect(text).toMatch(/tokens sent\s+[\d,]+ with compaction; about [\d,]+ without \(\d+% saved\)/);
    expect(text).toMatch(/recoveries\s+2$/m);
    expect(text).not.toContain('\u001b[');
    // The last line says where the page is and what it shows: the steps and compactions told above.
    const steps = Number(/steps\s+(\d+) \(/.exec(text)?.[1]);
    const compactions = lines.filter(
      (l) => /⤷ compaction before step \d+ \((?!overflow)/.test(l) && !l.includes('nothing it may change'),
    );
    expect(lines.at(-1)).toBe(
      `Report: ${report} (${steps} steps, ${compactions.length} compactions, 2 recoveries; open it in a browser)`,
    );
    const html = await readFile(report, 'utf8');
    expect(html.match(/<g class="mark compaction"/g)).toHaveLength(compactions.length);
    expect(html.match(/<g class="mark recovery"/g)).toHaveLength(2);
  });
});
