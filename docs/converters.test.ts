import { describe, expect, it } from 'vitest';
import { codeBlocks, runExample } from '../src/test-support/markdown-examples.js';

const blocks = await codeBlocks('docs/converters.md');

describe('docs/converters.md', () => {
  it('has its four examples', () => {
    expect(blocks).toHaveLength(4);
  });

  it('reads a Claude Code session, one reply from its records, with its model and usage', async () => {
    expect(await runExample(blocks[3] as string, 'claude-code')).toEqual(['user assistant', 'claude-sonnet-4-5 903']);
  });

  it('compacts a Chat Completions transcript and writes it back for the API', async () => {
    const [tokens, unchanged, pruned] = await runExample(blocks[0] as string, 'chat');
    const [, before, after] = /^(\d+) -> (\d+) tokens$/.exec(tokens ?? '') ?? [];
    expect(Number(after)).toBeLessThan(Number(before) / 3);
    expect(unchanged).toBe('null');
    expect(pruned).toBe('[pruned: read_file({"path":"src/f0.ts"}) result, 5209 chars; already read]');
  });

  it('keeps thinking blocks in place and says what it drops', async () => {
    expect(await runExample(blocks[1] as string, 'anthropic')).toEqual(['system user assistant tool', 'true', 'false']);
  });

  it('pins through providerOptions.lousho and writes the messages back as they were', async () => {
    expect(await runExample(blocks[2] as string, 'pinned')).toEqual(['true', 'true']);
  });
});
