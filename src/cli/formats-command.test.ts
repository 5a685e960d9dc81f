import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOG_FORMATS } from '../converters/log-formats.js';
import { TRANSCRIPT_FORMATS } from '../converters/transcript-format.js';
import { captureIO, noRun } from '../test-support/cli.js';
import { runCli } from './commands.js';
import { READ_FORMATS } from './transcript-file.js';

describe('lousho formats', () => {
  it('lists every format read: the id --from takes, its name and what it cannot carry', async () => {
    const cli = captureIO();
    expect(await runCli(['formats'], cli.io, noRun)).toBe(0);
    const text = cli.out.join('\n');
    for (const id of READ_FORMATS) expect(text).toMatch(new RegExp(`^  ${id} +`, 'm'));
    for (const f of LOG_FORMATS) expect(text).toContain(f.name);
    expect(text).toMatch(/^ {2}gemini-cli +Gemini CLI chat recording +thought summaries/m);
  });

  it('gives the same list as JSON', async () => {
    const cli = captureIO();
    expect(await runCli(['formats', '--json'], cli.io, noRun)).toBe(0);
    const rows = JSON.parse(cli.out.join('\n')) as { id?: string; name: string; lacks: string }[];
    expect(rows.map((r) => r.id).filter(Boolean)).toEqual(READ_FORMATS);
    expect(rows.every((r) => r.lacks.length > 0)).toBe(true);
    expect(rows.slice(0, TRANSCRIPT_FORMATS.length).map((r) => r.id)).toEqual([...TRANSCRIPT_FORMATS]);
  });
});

describe('refusals that name what a file is', () => {
  async function refusal(name: string, text: string): Promise<string> {
    const path = join(await mkdtemp(join(tmpdir(), 'lousho-kinds-')), name);
    await writeFile(path, text);
    const cli = captureIO();
    expect(await runCli(['inspect', path], cli.io, noRun)).toBe(2);
    expect(cli.err).toHaveLength(1);
    return (cli.err[0] as string).replace(path, '<file>');
  }

  // Cline's ui_messages.json (cline/cline src/shared/ExtensionMessage.ts: { ts, type: 'ask' | 'say', say, text }).
  it('names a Cline UI log and the file to give instead', async () => {
    const ui = [
      { ts: 1, type: 'say', say: 'task', text: 'Fix it' },
      { ts: 2, type: 'ask', ask: 'tool', text: '{}' },
    ];
    expect(await refusal('ui_messages.json', JSON.stringify(ui))).toBe(
      'LOUSHO_TRANSCRIPT_UNRECOGNIZED: <file> holds no messages: it is a Cline or Roo Code UI log (ui_messages.json): give api_conversation_history.json beside it.',
    );
  });

  // Gemini CLI's logs.json (google-gemini/gemini-cli packages/core/src/core/logger.ts: LogEntry).
  it("names Gemini CLI's prompt log", async () => {
    const logs = [{ sessionId: 's', messageId: 0, type: 'user', message: 'hi', timestamp: 't' }];
    expect(await refusal('logs.json', JSON.stringify(logs))).toContain(
      "it is a Gemini CLI prompt log (logs.json, the user's prompts only)",
    );
  });

  // Claude Code's ~/.claude/history.jsonl: { display, pastedContents, timestamp, project } per prompt.
  it("names Claude Code's prompt history", async () => {
    const line = JSON.stringify({ display: 'fix the build', pastedContents: {}, timestamp: 1, project: '/p' });
    expect(await refusal('history.jsonl', `${line}\n${line}\n`)).toContain(
      "it is Claude Code's prompt history (history.jsonl)",
    );
  });

  it('refuses a file of no known kind in one short line that names lousho formats', async () => {
    const said = await refusal('notes.txt', 'just some notes\n');
    expect(said).toBe(
      'LOUSHO_TRANSCRIPT_UNRECOGNIZED: <file> holds no messages: it is neither JSON nor JSON lines, nor a log read as text. See `lousho formats` for what is read; --from names a format.',
    );
    expect(said.length - '<file>'.length).toBeLessThan(200);
  });
});
