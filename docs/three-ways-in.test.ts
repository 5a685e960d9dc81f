import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOpenAIChat } from '../src/converters/from-openai-chat.js';
import { toOpenAIChat } from '../src/converters/to-openai-chat.js';
import { codeBlocks, runExample } from '../src/test-support/markdown-examples.js';
import { startScriptedChatServer } from '../src/test-support/scripted-chat-server.js';
import { readingTranscript } from '../src/test-support/transcripts.js';

const blocks = await codeBlocks('docs/three-ways-in.md');
const saved = { LMSTUDIO_BASE_URL: process.env.LMSTUDIO_BASE_URL, TRANSCRIPT: process.env.TRANSCRIPT };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('docs/three-ways-in.md', () => {
  it('has the three ways in', () => {
    expect(blocks).toHaveLength(3);
  });

  it("are the README's first examples, word for word, so the README shows what this file runs", async () => {
    expect((await codeBlocks('README.md')).slice(0, 3)).toEqual(blocks);
  });

  it('1: runs our agent with compaction through 40 large reads', async () => {
    const [line] = await runExample(blocks[0] as string, 'runtime');
    const [, steps, compactions] = /^Reviewed\. (\d+) steps, (\d+) compactions$/.exec(line ?? '') ?? [];
    expect(Number(steps)).toBe(41);
    expect(Number(compactions)).toBeGreaterThan(0);
  });

  it('2: keeps an AI SDK generateText loop under its 16K window with the middleware, against a local server', async () => {
    const server = await startScriptedChatServer(40);
    try {
      process.env.LMSTUDIO_BASE_URL = `${server.url}/v1`;
      expect(await runExample(blocks[1] as string, 'ai-sdk')).toEqual(['Done. 40 steps']);
      expect(server.answered).toHaveLength(40);
      expect(Math.max(...server.answered.map((r) => r.promptTokens))).toBeLessThan(16_000);
      expect(
        server.answered.at(-1)?.messages.some((m) => m.role === 'tool' && String(m.content).startsWith('[pruned:')),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('3: compacts a saved OpenAI chat transcript and writes it back in its format', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'lousho-three-')), 'transcript.json');
    await writeFile(file, JSON.stringify(toOpenAIChat(readingTranscript(12, 6_000))));
    process.env.TRANSCRIPT = file;
    const [line] = await runExample(blocks[2] as string, 'any-transcript');
    const [, before, after] = /^(\d+) -> (\d+) tokens$/.exec(line ?? '') ?? [];
    expect(Number(after)).toBeLessThan(Number(before) / 2);
    const written = fromOpenAIChat(JSON.parse(await readFile(`${file}.compacted.json`, 'utf8')));
    expect(written).toHaveLength(26);
  });
});
