import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { sharedPath } from '../test-support/corpus.js';
import { runCli } from './commands.js';
import { transcriptReport } from './report-from-transcript.js';
import { reportPage } from './report-page.js';
import { countingModel } from './transcript-count.js';
import { readTranscriptFile } from './transcript-file.js';

/*
 * Constructed here, shaped as a Claude Code session reads: no system prompt and no tool
 * definitions in the log, and on each assistant message the usage Anthropic reported for the
 * request that produced it (`metadata.reportedUsage`, inputTokens with cache reads and
 * writes), which is about 20,000 tokens of system prompt and tools above what the messages
 * hold, growing to 150,000 as the session reads files.
 */
function session(billedExtra: (step: number) => number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Read the project and summarize it.' }];
  for (let step = 1; step <= 6; step++) {
    const inputTokens = estimateTokens({ model: 'claude-sonnet-4-6', messages }) + billedExtra(step);
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `c${step}`, name: 'Read', arguments: { path: `src/f${step}.ts` } }],
      metadata: { reportedUsage: { inputTokens, outputTokens: 40, cacheReadTokens: inputTokens - 100 } },
    });
    messages.push({ role: 'tool', toolCallId: `c${step}`, content: `export const f${step} = ${step};\n`.repeat(50) });
  }
  return messages;
}

const billedLikeClaudeCode = (step: number) => 20_000 + step * 20_000; // up to 140,000 beyond the messages

async function file(messages: Message[]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'lousho-billed-usage-')), 'session.json');
  await writeFile(path, JSON.stringify(messages));
  return path;
}

describe('the billed usage a log records, beside the estimate', () => {
  it('is drawn by report as a line of its own per step, saying what the log lacks', () => {
    const messages = session(billedLikeClaudeCode);
    const data = transcriptReport('s.json', { messages }, 'read as test', { model: 'claude-sonnet-4-6' });
    const reported = messages.flatMap((m) =>
      m.role === 'assistant' ? [(m.metadata?.reportedUsage as { inputTokens: number } | undefined)?.inputTokens] : [],
    );
    expect(data.steps.map((s) => s.reported)).toEqual(reported);
    expect(data.steps.every((s) => (s.reported as number) > s.tokens + 20_000)).toBe(true);
    const note = data.notes.find((n) => n.includes('The provider reported the input of 6 of the 6 requests'));
    expect(note).toContain('the file holds no system prompt and no tool definitions, which the provider counted');
    const page = reportPage(data, 'test');
    expect(page).toMatch(/<polyline class="reported" points="[\d., ]+"\/>/);
    expect(page).toContain('input tokens the provider reported (billed)');
    // The headline sizes the session as billed, not as the flat estimate near zero.
    const newest = reported.at(-1) as number;
    expect(page).toContain(`<dt>largest request</dt><dd>${newest.toLocaleString('en-US')} as billed (estimated`);
  });

  it('says nothing of a gap within a tenth, and draws no line where the log records no usage', () => {
    const close = session(() => 100);
    const data = transcriptReport('s.json', { messages: close }, 'read as test', { model: 'claude-sonnet-4-6' });
    expect(data.notes.join(' ')).not.toContain('which the provider counted');
    const none = close.map((m) => ({ ...m, metadata: {} }) as Message);
    const plain = transcriptReport('s.json', { messages: none }, 'read as test', { model: 'claude-sonnet-4-6' });
    expect(plain.steps.every((s) => s.reported === undefined)).toBe(true);
    expect(reportPage(plain, 'test')).not.toContain('class="reported"');
  });

  it('makes inspect give the newest billed request in its headline and draw the window with what it billed beyond, and say so', async () => {
    const path = await file(session(billedLikeClaudeCode));
    const a = captureIO();
    // Claude Code runs it with a 200,000-token window.
    expect(
      await runCli(['inspect', path, '--model', 'claude-sonnet-4-6', '--context-window', '200000'], a.io, noRun),
    ).toBe(0);
    const [headline] = a.out;
    const estimate = Number(/, ([\d,]+) tokens estimated/.exec(headline ?? '')?.[1]?.replaceAll(',', ''));
    const billed = Number(/newest billed request ([\d,]+) /.exec(headline ?? '')?.[1]?.replaceAll(',', ''));
    expect(estimate).toBeLessThan(10_000);
    expect(billed).toBeGreaterThan(140_000);
    expect(a.out.join('\n')).toContain(
      'the file holds no system prompt and no tool definitions, which the provider counted; the window below adds what the provider billed beyond the estimate',
    );
    const now = a.out.find((l) => l.trimStart().startsWith('now')) ?? '';
    // The figure is the one count (compact's); the bar and the share are drawn at the billed size, said beside it.
    expect(now).toMatch(
      /\[█{25,}[█░]*\|[░█]+\] [\d,]+ \(7\d\.\d% of the window; [\d,]+ with what was billed beyond\)$/,
    );
    const shown = Number(/\] ([\d,]+) \(/.exec(now)?.[1]?.replaceAll(',', ''));
    const drawn = Number(/; ([\d,]+) with what was billed beyond/.exec(now)?.[1]?.replaceAll(',', ''));
    expect(shown).toBe(estimate);
    const json = captureIO();
    expect(await runCli(['inspect', path, '--model', 'claude-sonnet-4-6', '--json'], json.io, noRun)).toBe(0);
    const report = JSON.parse(json.out.join('\n'));
    expect(report.tokens).toBe(estimate);
    expect(report.billed).toMatchObject({ index: 11, lacks: ['the system prompt', 'the tool definitions'] });
    expect(report.billed.reported).toBe(billed);
    expect(report.tokens + report.billed.beyond).toBe(drawn);
  });

  it('takes the usage of a request body as its own request: a note in the page, no step, nothing missing', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'Tell me more.' },
    ];
    const path = await file([]);
    await writeFile(path, JSON.stringify({ model: 'gpt-4o', messages, usage: { prompt_tokens: 40 } }));
    const dir = await mkdtemp(join(tmpdir(), 'lousho-billed-usage-'));
    const a = captureIO();
    expect(await runCli(['report', path, '--out', join(dir, 'p.html')], a.io, noRun)).toBe(0);
    const page = await readFile(join(dir, 'p.html'), 'utf8');
    expect(page).toContain('The file records what the provider reported for its own request: 40 input tokens');
    expect(page).not.toContain('class="reported"');
    // The body is the whole request: nothing of it is missing from the file.
    const b = captureIO();
    expect(await runCli(['inspect', path, '--json'], b.io, noRun)).toBe(0);
    const { tokens, billed } = JSON.parse(b.out.join('\n'));
    expect(billed).toEqual({ index: 3, reported: 40, estimated: tokens, beyond: 40 - tokens, lacks: [] });
  });
});

const FIXTURES = sharedPath('fixtures/transcripts');
if (FIXTURES === undefined)
  console.warn(
    'billed-usage.test.ts: shared/fixtures/transcripts is not beside the checkout; the real logs are skipped.',
  );

/** Real logs whose readers record each reply's usage (../shared/fixtures/transcripts, read in place), with what the log lacks. */
const REAL_LOGS = [
  ['claude-code/ccviewer-nextjs-todo-orchestrator.jsonl', 'no system prompt and no tool definitions'],
  ['claude-code/spotter-create-beads-opus46.jsonl', 'no system prompt and no tool definitions'],
  ['codex-cli/codemie-rollout-gpt55-0.125.jsonl', 'no tool definitions'],
  ['codex-cli/acidicsoil-rollout-gpt51codex-0.58.jsonl', 'no system prompt and no tool definitions'],
  ['opencode/darkfactory-quiet-meadow-subagents.json', 'no system prompt and no tool definitions'],
  ['openhands/openhands-basic-gui-mode-claude35.json', 'no system prompt and no tool definitions'],
];

describe.skipIf(FIXTURES === undefined)('the billed usage of real logs', () => {
  it.for(REAL_LOGS)(
    '%s: report draws what each reply was billed, inspect sizes the window by it',
    async ([name, lacks]) => {
      const path = join(FIXTURES as string, name as string);
      const read = await readTranscriptFile(path);
      const model = countingModel(undefined, read.model);
      const data = transcriptReport(path, read, 'read as test', { model });
      const carried = read.messages.filter((m) => m.role === 'assistant' && m.metadata?.reportedUsage !== undefined);
      const drawn = data.steps.filter((s) => s.reported !== undefined);
      expect(carried.length).toBeGreaterThan(0);
      expect(drawn.length).toBe(carried.length);
      expect(reportPage(data, 'test')).toContain('<polyline class="reported"');
      const a = captureIO();
      expect(await runCli(['inspect', path, '--json'], a.io, noRun)).toBe(0);
      const report = JSON.parse(a.out.join('\n'));
      const newest = drawn.at(-1) as { tokens: number; reported: number };
      expect(report.billed).toMatchObject({ reported: newest.reported, estimated: newest.tokens });
      const gap = (newest.reported - newest.tokens) / newest.reported;
      // Measured, not assumed: every one of these logs was billed more than a tenth above its estimate.
      expect(gap).toBeGreaterThan(0.1);
      expect(data.notes.join(' ')).toContain(`the file holds ${lacks}, which the provider counted`);
      console.log(
        `${name}: ${drawn.length} steps reported; newest estimated ${newest.tokens}, billed ${newest.reported} (${(gap * 100).toFixed(1)}% above)`,
      );
    },
  );

  it.for(REAL_LOGS)(
    '%s: report says how far the estimate is from the bill in the words inspect does',
    async ([name]) => {
      const path = join(FIXTURES as string, name as string);
      const read = await readTranscriptFile(path);
      const data = transcriptReport(path, read, 'read as test', { model: countingModel(undefined, read.model) });
      const a = captureIO();
      expect(await runCli(['inspect', path], a.io, noRun)).toBe(0);
      // inspect: "the provider reported 21,552 input tokens for ...; estimated 5,213 (75.8% under)"
      const [, estimated, off] = /; estimated ([\d,]+) \((\d+\.\d% (?:under|over))\)/.exec(a.out.join('\n')) ?? [];
      expect(off).toBeDefined();
      const note = data.notes.find((n) => n.includes('at the newest it billed')) as string;
      expect(note).toContain(`where ${estimated} were estimated (${off})`);
      expect(note).not.toMatch(/% more|% less/);
    },
  );

  it.for(REAL_LOGS)('%s: inspect and report give the one billed figure under one name', async ([name]) => {
    const path = join(FIXTURES as string, name as string);
    const a = captureIO();
    expect(await runCli(['inspect', path], a.io, noRun)).toBe(0);
    const dir = await mkdtemp(join(tmpdir(), 'lousho-billed-usage-'));
    const b = captureIO();
    expect(await runCli(['report', path, '--out', join(dir, 'p.html')], b.io, noRun)).toBe(0);
    const page = await readFile(join(dir, 'p.html'), 'utf8');
    const named = /newest billed request ([\d,]+) \(estimated ([\d,]+)/;
    const inInspect = named.exec(a.out[0] as string);
    const inReport = named.exec(page.replace('<dt>newest billed request</dt><dd>', 'newest billed request '));
    expect(inInspect, a.out[0]).not.toBeNull();
    expect(inReport?.slice(1)).toEqual(inInspect?.slice(1));
    // The real figure: what the provider reported for that request, as --json gives it.
    const c = captureIO();
    expect(await runCli(['inspect', path, '--json'], c.io, noRun)).toBe(0);
    const { billed } = JSON.parse(c.out.join('\n'));
    expect(inInspect?.[1]).toBe(billed.reported.toLocaleString('en-US'));
    expect(a.out[0]).not.toMatch(/as billed/);
    if (name === 'codex-cli/codemie-rollout-gpt55-0.125.jsonl')
      expect(inInspect?.slice(1)).toEqual(['131,573', '115,343']);
  });
});
