import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureIO } from '../test-support/cli.js';
import { isolateEnv, PROVIDER_ENV_KEYS } from '../test-support/provider-setup.js';
import { colours } from './colour.js';
import { type RunOptions, runCli } from './commands.js';
import { runJob } from './run-job.js';

isolateEnv([...PROVIDER_ENV_KEYS, 'LOUSHO_MODEL']);
beforeEach(() => {
  // No local server answers on port 1.
  process.env.OLLAMA_HOST = 'http://127.0.0.1:1';
  process.env.LMSTUDIO_BASE_URL = 'http://127.0.0.1:1/v1';
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What the library's own messages name, which a command-line user cannot call. */
const LIBRARY_WORDS =
  /mockModel|registerProvider|registerModel|LLMProvider|createCompactionHook|compaction\.contextWindow|\w\(\)/;

async function run(argv: string[]) {
  const a = captureIO();
  const folder = await mkdtemp(join(tmpdir(), 'lousho-run-model-'));
  const exit = await runCli(['run', folder, ...argv], a.io, (o: RunOptions) =>
    runJob({ ...o, colours: colours(false), print: a.io.out }),
  );
  return { exit, ...a };
}

describe('lousho run says what to pass on its command line, not which library function to call', () => {
  it.each([
    ['nosuch/x', /^lousho run: cannot use --model nosuch\/x: no provider is known by the prefix "nosuch"\./],
    ['x', /^lousho run: cannot use --model x: it has no provider prefix\./],
    ['openai/', /^lousho run: cannot use --model openai\/: it has no model after the prefix\./],
  ])('refuses --model %s in one line naming the form and the prefixes it knows, exit 2', async (spec, start) => {
    const { exit, err } = await run(['--model', spec]);
    expect(exit).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(start);
    expect(err[0]).toContain(
      '--model takes provider/model, with one of the prefixes anthropic, lmstudio, ollama, openai, openai-responses, openrouter',
    );
    expect(err[0]).not.toMatch(LIBRARY_WORDS);
  });

  it('refuses LOUSHO_MODEL with an unknown prefix in the same words', async () => {
    process.env.LOUSHO_MODEL = 'nosuch/x';
    const { exit, err } = await run([]);
    expect(exit).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(/^lousho run: cannot use LOUSHO_MODEL=nosuch\/x: no provider is known/),
    ]);
    expect(err[0]).not.toMatch(LIBRARY_WORDS);
  });

  it('says to pass --window when the model has no known window, and the library says nothing of its own', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // The model cannot be reached, so the run fails after it has said what it assumes.
    const { out } = await run(['--model', 'ollama/qwen3:8b', '--max-steps', '1', '-q']);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([]);
    const said = out.filter((line) => /context window/.test(line));
    expect(said).toEqual([
      'The context window of ollama/qwen3:8b is not known: compaction assumes 128,000 tokens. Pass --window N with the window the model runs with (a local server often uses a much smaller one).',
    ]);
  });

  it('names no library function in a whole scripted run', async () => {
    const { exit, out, err } = await run(['--out', join(await mkdtemp(join(tmpdir(), 'lousho-run-page-')), 'p.html')]);
    expect(exit).toBe(0);
    expect([...out, ...err].filter((line) => LIBRARY_WORDS.test(line))).toEqual([]);
    expect(out.join('\n')).toContain('--model provider/model runs a real one');
  });
});
