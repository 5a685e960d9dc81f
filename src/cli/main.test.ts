import { execFile, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Runs the `lousho` bin from source, as `npm start` does, and resolves to its exit code and output. */
function lousho(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', MAIN, ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
  });
}

describe('the lousho bin', () => {
  it('answers --help with exit 0', async () => {
    const { code, stdout } = await lousho(['inspect', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: lousho inspect/);
  });

  it('answers an unknown command with one line on stderr, exit 2 and no stack', async () => {
    const { code, stdout, stderr } = await lousho(['bogus']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^lousho: unknown command bogus/)]);
  });

  it('prints no colour when piped or with NO_COLOR, and colour with FORCE_COLOR', async () => {
    const args = ['inspect', fileURLToPath(new URL('../../docs/fixtures/reading.json', import.meta.url))];
    const plain = await lousho(args, { NO_COLOR: '1' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('\u001b[');
    const coloured = await lousho(args, { FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\u001b[1m');
  });
});

describe('the lousho bin on a closed pipe', () => {
  it('ends quietly, exit 0, when the reader stops reading (`lousho compact big.json | head -1`)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-pipe-'));
    const path = join(dir, 'big.json');
    const messages: unknown[] = [{ role: 'user', content: 'Read them all.' }];
    for (let i = 0; i < 400; i++) {
      messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'read', arguments: { i } }] });
      messages.push({ role: 'tool', toolCallId: `c${i}`, content: 'line of a file\n'.repeat(200) });
    }
    await writeFile(path, JSON.stringify(messages));
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'compact', path], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error:|at .*\.js:\d+/);
  });
});
