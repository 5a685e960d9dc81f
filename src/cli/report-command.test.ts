import { copyFile, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureIO, noRun } from '../test-support/cli.js';
import { corpusFiles, sharedPath } from '../test-support/corpus.js';
import { runCli } from './commands.js';

const reading = fileURLToPath(new URL('../../docs/fixtures/reading.json', import.meta.url));

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-report-cli-'));
}

async function transcript(): Promise<{ dir: string; path: string }> {
  const dir = await folder();
  const path = join(dir, 'transcript.json');
  await copyFile(reading, path);
  return { dir, path };
}

async function run(argv: string[]) {
  const a = captureIO();
  const code = await runCli(argv, a.io, noRun);
  return { code, out: a.out, err: a.err };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('lousho report', () => {
  it('writes one self-contained page beside the input by default and says where', async () => {
    const { dir, path } = await transcript();
    const result = await run(['report', path]);
    expect(result).toEqual({
      code: 0,
      out: [
        `${join(dir, 'transcript.report.html')}: 6 steps, 0 compactions, 0 recoveries; read as lousho messages in a JSON array`,
      ],
      err: [],
    });
    const html = await readFile(join(dir, 'transcript.report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<svg class="chart"');
    // Nothing on the page points anywhere: no src or href, no URL, and a policy that allows no fetch.
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain(`content="default-src 'none';`);
    expect(await readdir(dir)).toEqual(['transcript.json', 'transcript.report.html']);
  });

  it('writes to --out, replacing a file there only with the whole page', async () => {
    const { dir, path } = await transcript();
    const out = join(dir, 'page.html');
    await writeFile(out, 'an older page');
    expect((await run(['report', path, '--out', out])).code).toBe(0);
    expect(await readFile(out, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/);
    expect(await readdir(dir)).toEqual(['page.html', 'transcript.json']); // no temporary file left
  });

  it('never writes over the file it reads, however --out spells it', async () => {
    const { dir, path } = await transcript();
    const before = await readFile(path, 'utf8');
    for (const out of [path, join(dir, '..', basename(dir), 'transcript.json')]) {
      const result = await run(['report', path, '--out', out]);
      expect(result.code).toBe(2);
      expect(result.err).toEqual([
        `lousho report: --out is the file it reads (${out}); the report goes to another file.`,
      ]);
    }
    expect(await readFile(path, 'utf8')).toBe(before);
    expect(await readdir(dir)).toEqual(['transcript.json']);
  });

  it('refuses a file it cannot read as inspect does, with exit 2 and one line, and writes nothing', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'empty.json'), '');
    await writeFile(join(dir, 'config.json'), '{ "name": "not a transcript" }');
    await mkdir(join(dir, 'runs'));
    for (const name of ['empty.json', 'config.json', 'runs', 'missing.json']) {
      const path = join(dir, name);
      const report = await run(['report', path]);
      const inspect = await run(['inspect', path]);
      expect(report.code, name).toBe(2);
      expect(report.err, name).toHaveLength(1);
      expect(report.err[0]?.replaceAll('lousho report', 'lousho inspect'), name).toBe(inspect.err[0]);
    }
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'empty.json', 'runs']);
  });

  it('writes a page of valid UTF-8 when a tool name and a result begin with a lone surrogate', async () => {
    // Constructed here: a JS string may hold half of a surrogate pair (a result cut in the middle
    // of an emoji, a tool name decoded from broken bytes); JSON escapes it as \\ud83d.
    const dir = await folder();
    const path = join(dir, 'broken.json');
    const half = '\ud83d';
    const messages = [
      { role: 'user', content: 'Read it.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: `read${half}file`, arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', content: `${half}cut emoji\nsecond line` },
      { role: 'assistant', content: 'Done.' },
    ];
    await writeFile(path, JSON.stringify(messages));
    const result = await run(['report', path]);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(0);
    const bytes = await readFile(join(dir, 'broken.report.html'));
    const page = new TextDecoder('utf-8', { fatal: true }).decode(bytes); // throws on invalid UTF-8
    expect(page).toContain('read\ufffdfile');
    expect(page).toContain('\ufffdcut emoji');
  });

  it('says in one line, with exit 2, why it cannot write the page', async () => {
    const { dir, path } = await transcript();
    const out = join(dir, 'no-such-folder', 'page.html');
    expect(await run(['report', path, '--out', out])).toEqual({
      code: 2,
      out: [],
      err: [
        `lousho report: cannot write ${out}: its folder ${join(dir, 'no-such-folder')} does not exist. Create the folder, or give --out a path in one that exists.`,
      ],
    });
  });
});

/** Every real log of the shared fixtures and corpus, read where it is. */
async function realLogs(): Promise<string[]> {
  const root = sharedPath('fixtures/transcripts');
  const fixtures: string[] = [];
  if (root !== undefined) {
    for (const kind of (await readdir(root)).sort()) {
      if (!(await stat(join(root, kind))).isDirectory()) continue;
      for (const name of (await readdir(join(root, kind))).sort()) fixtures.push(join(root, kind, name));
    }
  }
  return [...fixtures, ...corpusFiles()];
}

describe('lousho report on the real logs of ../shared', async () => {
  const files = await realLogs();
  if (files.length === 0)
    console.log('skipped: ../shared/fixtures/transcripts and ../shared/corpus are not beside the checkout');

  it.skipIf(files.length === 0)(
    'pictures every file inspect reads, a step per assistant turn, and refuses as inspect every file it refuses',
    async () => {
      const out = await folder();
      let pictured = 0;
      for (const file of files) {
        const inspect = await run(['inspect', file, '--json']);
        const page = join(out, `${basename(file)}.html`);
        const report = await run(['report', file, '--out', page]);
        expect(report.code, file).toBe(inspect.code);
        if (inspect.code !== 0) {
          expect(report.err, file).toHaveLength(1);
          expect(await exists(page), file).toBe(false);
          continue;
        }
        pictured++;
        const assistants = (
          JSON.parse(inspect.out.join('\n')) as { byRole: { name: string; messages: number }[] }
        ).byRole.find((r) => r.name === 'assistant')?.messages;
        expect(report.out[0], file).toMatch(new RegExp(`^${page}: ${assistants} steps, `));
        expect(await readFile(page, 'utf8'), file).toContain('<svg class="chart"');
      }
      console.log(
        `lousho report pictured ${pictured} of ${files.length} real logs (inspect reads the same ${pictured})`,
      );
      expect(pictured).toBeGreaterThan(files.length / 2);
    },
    600_000,
  );
});
