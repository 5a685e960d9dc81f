/**
 * The run report opened in a real headless Chromium (Debian's `chromium`, which .ci/run
 * installs): what the page renders, that its script runs without an error, and that it asks
 * the network for nothing. Each page is written the way users get it: `lousho report` on a
 * saved session and on a 5,000-step transcript, the main job's own page, a real Claude Code log.
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../contracts/agent-event.js';
import { type BrowserPage, Chromium, findChromium } from '../test-support/chromium.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedFixture } from '../test-support/corpus.js';
import { PROVIDER_ENV_KEYS } from '../test-support/provider-setup.js';
import { demoProject, longTranscript, savedSession } from '../test-support/report-runs.js';
import { colours } from './colour.js';
import { runCli } from './commands.js';
import type { ReportData } from './report-data.js';
import { reportPage } from './report-page.js';
import { runJob } from './run-job.js';
import { readTranscriptFile } from './transcript-file.js';

const chromium = findChromium();
if (chromium === undefined)
  console.log(
    'skipped: no Chromium at /usr/bin/chromium (or $LOUSHO_CHROMIUM); `apt-get install chromium` installs it, as .ci/run does',
  );

/** What the page shows, read from its DOM after it loaded. */
interface Rendered {
  points: number;
  /** Points of the line of what the provider reported, 0 when the page draws none. */
  reportedPoints: number;
  drawn: number;
  chart: { width: number; height: number };
  marks: { cls: string; freed: number; count: number; title: string; height: number }[];
  roles: string[][];
  tools: string[][];
  markRows: string[][];
  markCaption: string;
  largest: string[][];
  figcaption: string;
}

const READ = `(() => {
  const svg = document.querySelector('svg.chart');
  const rows = (selector) => [...document.querySelectorAll(selector + ' tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
  const box = svg.getBoundingClientRect();
  return {
    points: svg.querySelector('polyline.series').getAttribute('points').trim().split(/\\s+/).length,
    reportedPoints: svg.querySelector('polyline.reported')?.getAttribute('points').trim().split(/\\s+/).length ?? 0,
    drawn: JSON.parse(document.getElementById('report-series').textContent).steps.length,
    chart: { width: box.width, height: box.height },
    marks: [...svg.querySelectorAll('g.mark')].map((g) => ({
      cls: g.getAttribute('class'),
      freed: Number(g.dataset.freed),
      count: Number(g.dataset.count ?? 1),
      title: g.querySelector('title').textContent,
      height: g.getBBox().height,
    })),
    roles: rows('table.by-role').map((r) => r.slice(0, 3)),
    tools: rows('table.by-tool').map((r) => r.slice(0, 3)),
    markRows: rows('table.marks'),
    markCaption: document.querySelector('table.marks caption')?.textContent ?? '',
    largest: rows('table.largest'),
    figcaption: document.querySelector('figcaption').textContent,
  };
})()`;

let browser: Chromium;
let dir: string;
beforeAll(async () => {
  if (chromium === undefined) return;
  browser = await Chromium.launch(chromium);
  dir = await mkdtemp(join(tmpdir(), 'lousho-report-browser-'));
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Opens a page, reads what it rendered, and checks it logged no error and loaded nothing but itself. */
async function open(path: string): Promise<{ page: BrowserPage; rendered: Rendered; loadMs: number }> {
  const url = pathToFileURL(path).href;
  const page = await browser.open(url);
  const rendered = await page.evaluate<Rendered>(READ);
  const loadMs = await page.evaluate<number>('performance.getEntriesByType("navigation")[0].loadEventEnd');
  expect(page.log.errors).toEqual([]);
  expect(page.log.requests).toEqual([url]);
  expect(rendered.chart.width).toBeGreaterThan(800);
  expect(rendered.chart.height).toBeGreaterThan(250);
  return { page, rendered, loadMs };
}

async function report(input: string, out: string, ...options: string[]): Promise<string> {
  const a = captureIO();
  expect(await runCli(['report', input, '--out', out, ...options], a.io, noRun), a.err.join('\n')).toBe(0);
  return a.out[0] as string;
}

const claudeCode = sharedFixture(
  'fixtures/transcripts/claude-code/ccviewer-nextjs-todo-orchestrator.jsonl',
  'report-in-browser.test.ts',
  'the page of a real Claude Code session',
);

describe.skipIf(chromium === undefined)('the run report in a real browser', () => {
  it('draws a saved session: a point per step, every compaction with what it freed, its roles and tools, and a cursor that follows the pointer', async () => {
    const run = await savedSession(join(dir, 'session'), 2, 40, 10_000);
    const page = join(dir, 'session.html');
    await report(run.log, page, '--context-window', '10000');
    const { page: tab, rendered } = await open(page);
    const replies = run.events.filter((e) => e.event.type === 'step.done').length;
    const done = run.events
      .map((e) => e.event)
      .filter((e): e is Extract<AgentEvent, { type: 'compaction.done' }> => e.type === 'compaction.done')
      .filter((e) => e.tokensAfter < e.tokensBefore);
    expect(rendered.points).toBe(replies);
    expect(rendered.drawn).toBe(replies);
    expect(rendered.marks).toHaveLength(done.length);
    for (const [i, mark] of rendered.marks.entries()) {
      expect(mark.cls).toBe('mark compaction');
      expect(mark.height).toBeGreaterThan(5); // drawn from the size before down to the size after
      const freed = mark.freed.toLocaleString('en-US');
      expect(mark.title).toMatch(
        new RegExp(
          `^compaction before step \\d+ \\(rewritten in the log\\): [\\d,]+ -> [\\d,]+ tokens, freed ${freed};`,
        ),
      );
      // The table lists the same compactions, with the same tokens freed.
      expect(rendered.markRows[i]?.[5]).toBe(freed);
      const event = done[i] as (typeof done)[number];
      expect(Math.abs(mark.freed - (event.tokensBefore - event.tokensAfter))).toBeLessThan(20);
    }
    expect(rendered.roles.map((r) => r[0])).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(rendered.tools.map((r) => r[0])).toEqual(['read_file', 'mcp__github__search_issues']);
    expect(rendered.tools[0]?.[1]).toBe(
      String(run.events.filter((e) => e.event.type === 'tool.done' && e.event.toolName === 'read_file').length),
    );

    // The pointer over the middle of the chart: the cursor shows, and the tip names a step and its size.
    const box = await tab.evaluate<{ x: number; y: number }>(
      `(() => { const r = document.querySelector('svg.chart').getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    );
    await tab.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: box.x, y: box.y });
    const tip = await tab.evaluate<{ hidden: boolean; text: string; cursor: string | null }>(
      `({ hidden: document.getElementById('tip').hidden, text: document.getElementById('tip').textContent, cursor: document.querySelector('.cursor').getAttribute('visibility') })`,
    );
    expect(tip).toMatchObject({ hidden: false, cursor: 'visible' });
    expect(tip.text).toMatch(/^step \d+ \(turn [12], step \d+\): [\d,]+ tokens, \d+% of the window$/);
    expect(tab.log.errors).toEqual([]);
  }, 180_000);

  it('keeps a 5,000-step transcript light: at most 1,600 drawn points, said under the chart', async () => {
    const input = join(dir, 'long.json');
    await longTranscript(input, 5_000);
    const page = join(dir, 'long.html');
    expect(await report(input, page)).toBe(
      `${page}: 5000 steps, 0 compactions, 0 recoveries; read as OpenAI chat messages in a JSON array`,
    );
    const { rendered, loadMs } = await open(page);
    expect(rendered.points).toBe(1_600);
    expect(rendered.drawn).toBe(1_600);
    expect(rendered.figcaption).toContain('1,600 of the 5,000 steps are drawn');
    expect(rendered.tools).toEqual([['read_file', '4,999', expect.stringMatching(/^[\d,]+$/)]]);
    console.log(`a 5,000-step transcript's page: ${(await stat(page)).size} bytes, loaded in ${Math.round(loadMs)} ms`);
  }, 120_000);

  it('groups the marks of a 5,000-step run with 1,000 compactions, and still holds every one', async () => {
    const steps = Array.from({ length: 5_000 }, (_, i) => ({ step: i + 1, tokens: 6_000 + (i % 5) * 2_000 }));
    const marks = Array.from({ length: 1_000 }, (_, i) => ({
      step: i * 5 + 1,
      kind: 'compaction' as const,
      what: 'prune-tool-results',
      tokensBefore: 15_000,
      tokensAfter: 6_000 - (i % 7),
      detail: '4 old tool results pruned',
    }));
    const data: ReportData = {
      title: 'a long run',
      source: 'made up for this test',
      sizes: 'made up',
      contextWindow: 16_000,
      windowFrom: 'the run’s',
      thresholdTokens: 14_400,
      steps,
      marks,
      byRole: [{ name: 'tool', messages: 5_000, tokens: 1 }],
      byTool: [],
      largest: [],
      totals: { messages: 5_000, tokens: 1 },
      notes: [],
    };
    const page = join(dir, 'grouped.html');
    await writeFile(page, reportPage(data, 'test'));
    const { rendered, loadMs } = await open(page);
    expect(rendered.points).toBe(1_600);
    expect(rendered.marks.length).toBeLessThanOrEqual(300);
    expect(rendered.marks.reduce((sum, m) => sum + m.count, 0)).toBe(1_000);
    const freed = marks.reduce((sum, m) => sum + m.tokensBefore - m.tokensAfter, 0);
    expect(rendered.marks.reduce((sum, m) => sum + m.freed, 0)).toBe(freed);
    expect(rendered.markRows).toHaveLength(200);
    expect(rendered.markCaption).toBe('The 200 of 1,000 that freed the most; the chart marks every one.');
    console.log(
      `a 5,000-step page with 1,000 compactions: ${(await stat(page)).size} bytes, loaded in ${Math.round(loadMs)} ms`,
    );
  }, 120_000);

  it("draws the main job's page with its compactions and both its recoveries", async () => {
    const saved = Object.fromEntries(
      [...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL', 'OLLAMA_HOST', 'LMSTUDIO_BASE_URL'].map((k) => [k, process.env[k]]),
    );
    for (const key of [...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL']) delete process.env[key];
    process.env.OLLAMA_HOST = 'http://127.0.0.1:1';
    process.env.LMSTUDIO_BASE_URL = 'http://127.0.0.1:1/v1';
    const page = join(dir, 'run.html');
    const lines: string[] = [];
    try {
      await runJob({ folder: await demoProject(), colours: colours(false), print: (l) => lines.push(l), out: page });
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    const { rendered } = await open(page);
    const steps = Number(/steps\s+(\d+) \(/.exec(lines.join('\n'))?.[1]);
    expect(rendered.points).toBe(steps);
    const recoveries = rendered.marks.filter((m) => m.cls === 'mark recovery');
    // Both recoveries the run announced, in either order (the rejection may come at the oversized read's step).
    expect(recoveries.map((m) => m.title).sort()).toEqual([
      expect.stringMatching(
        /^recovery before step \d+ \(context-overflow(: overflow-recovery.*\): [\d,]+ -> [\d,]+ tokens, freed [\d,]+)?\)?; the provider rejected/,
      ),
      expect.stringMatching(
        /^recovery before step \d+ \(oversized-results: overflow-recovery.*\): [\d,]+ -> [\d,]+ tokens, freed [\d,]+; compacted the request/,
      ),
    ]);
    const told = lines.filter(
      (l) => /⤷ compaction before step \d+ \((?!overflow)/.test(l) && !l.includes('nothing it may change'),
    );
    expect(told.length).toBeGreaterThan(0);
    expect(
      rendered.marks.filter((m) => m.cls === 'mark compaction').map((m) => m.title.replace(/ tokens, freed .*/, '')),
    ).toEqual(told.map((l) => l.replace(/^\s*⤷ /, '').replace(/ tokens, .*$/, '')));
    expect(rendered.tools.map((r) => r[0]).sort()).toEqual(
      [...new Set(lines.flatMap((l) => /^step .*%\)\s+(.*)$/.exec(l)?.[1]?.split(', ') ?? []))]
        .filter((t) => t !== 'answer')
        .map((t) => t.replace(/ ×\d+$/, ''))
        .filter((t, i, all) => all.indexOf(t) === i)
        .sort(),
    );
  }, 240_000);

  it.skipIf(claudeCode === undefined)(
    'draws a real Claude Code session with the tools it called and what each request was billed',
    async () => {
      const input = claudeCode as string;
      const page = join(dir, 'claude-code.html');
      await report(input, page);
      const { page: tab, rendered } = await open(page);
      const { messages } = await readTranscriptFile(input);
      const names = new Map(
        messages.flatMap((m) =>
          m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => [c.id, c.name] as const) : [],
        ),
      );
      const called = new Set(
        messages.flatMap((m) => (m.role === 'tool' ? [m.toolName ?? names.get(m.toolCallId) ?? 'unknown'] : [])),
      );
      expect(rendered.points).toBe(messages.filter((m) => m.role === 'assistant').length);
      expect(new Set(rendered.tools.map((r) => r[0]))).toEqual(called);
      expect(rendered.largest.length).toBe(Math.min(10, messages.filter((m) => m.role === 'tool').length));
      // What Anthropic billed each reply's request, as the log records it: a line of its own, and in the tip.
      const billed = messages.filter((m) => m.role === 'assistant' && m.metadata?.reportedUsage !== undefined);
      expect(billed.length).toBeGreaterThan(0);
      expect(rendered.reportedPoints).toBe(billed.length);
      const box = await tab.evaluate<{ x: number; y: number }>(
        `(() => { const r = document.querySelector('svg.chart').getBoundingClientRect(); return { x: r.right - 20, y: r.top + r.height / 2 }; })()`,
      );
      await tab.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: box.x, y: box.y });
      const tip = await tab.evaluate<string>(`document.getElementById('tip').textContent`);
      expect(tip).toMatch(/^step \d+: [\d,]+ tokens estimated, [\d,]+ reported, \d+% of the window$/);
      expect(tab.log.errors).toEqual([]);
      expect(await readFile(input, 'utf8')).not.toBe(''); // read in place, untouched
    },
    120_000,
  );
});
