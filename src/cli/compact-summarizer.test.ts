import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendJson } from '../test-support/loopback-server.js';
import { isolateEnv, useLoopbackServers } from '../test-support/provider-setup.js';
import { readingTranscript } from '../test-support/transcripts.js';
import { runCli } from './commands.js';

isolateEnv();
const serve = useLoopbackServers();

const noRun = async () => {
  throw new Error('run should not be called');
};

describe('lousho compact with a summarizer model', () => {
  it('summarizes old turns with the model over real HTTP and reports what it replaced', async () => {
    const server = await serve((request, response) => {
      if (request.path !== '/v1/chat/completions') return sendJson(response, 404, { error: 'not found' });
      sendJson(response, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'tiny',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Seven files were read.' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 900, completion_tokens: 6, total_tokens: 906 },
      });
    });
    process.env.OLLAMA_HOST = server.url;
    const dir = await mkdtemp(join(tmpdir(), 'lousho-cli-'));
    const input = join(dir, 't.json');
    await writeFile(input, JSON.stringify(readingTranscript(8, 3_000)));
    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l) };
    const argv = [
      'compact',
      input,
      '--out',
      join(dir, 'out.json'),
      '--strategy',
      'summarize',
      '--summarizer',
      'ollama/tiny',
    ];
    expect(
      await runCli(
        [...argv, '--model', 'gpt-4o', '--context-window', '10000', '--protected-tokens', '2000'],
        io,
        noRun,
      ),
    ).toBe(0);
    expect(err[0]).toBe(`compacting 18 messages of ${input} with the summarize strategy (summaries by ollama/tiny)…`);
    expect(err[1]).toMatch(
      /^summarize: [\d,]+ -> [\d,]+ tokens; 0 tool results pruned, \d+ messages summarized; written to /,
    );
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    const written = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')) as { content: string }[];
    expect(written.some((m) => m.content.includes('Seven files were read.'))).toBe(true);
  });

  it('exits 1 with one line saying why, and writes nothing, when the summarizer of --strategy summarize cannot be reached', async () => {
    const name = 'summarize';
    const server = await serve((_request, response) => sendJson(response, 503, { error: 'down' }));
    process.env.OLLAMA_HOST = server.url;
    await server.close();
    const dir = await mkdtemp(join(tmpdir(), 'lousho-cli-'));
    const input = join(dir, 't.json');
    const out = join(dir, 'out.json');
    await writeFile(input, JSON.stringify(readingTranscript(8, 3_000)));
    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l) };
    const argv = ['compact', input, '--out', out, '--strategy', name, '--summarizer', 'ollama/tiny'];
    const code = await runCli([...argv, '--context-window', '10000', '--protected-tokens', '2000'], io, noRun);
    expect(code).toBe(1);
    const said = err.filter((l) => !l.startsWith('compacting '));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^LOUSHO_[A-Z_]+: lousho compact: the summarizer ollama\/tiny failed, so nothing was written: .*Could not reach/,
    );
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('asks for --summarizer when the strategy needs a model', async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l) };
    expect(await runCli(['compact', 'x.json', '--strategy', 'two-phase'], io, noRun)).toBe(2);
    expect(err).toEqual([
      'lousho compact: --strategy two-phase needs a model: add --summarizer provider/model, e.g. --summarizer openai/gpt-4o-mini.',
    ]);
  });
});
