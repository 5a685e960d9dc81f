import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model-request.js';
import { LoushoError } from '../errors/lousho-error.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import type { MockReply } from '../testing/mock-model.js';
import {
  explorerAnswer,
  explorerScript,
  explorerSteps,
  type FileRead,
  fileRead,
  OVERCOUNT,
} from './explorer-script.js';

// The text files of a folder, as the run finds them by their content (a binary one is not passed).
const files = ['a.ts', 'b.ts', 'c.md', 'd.json', 'e.ts', 'f.ts', 'notes.txt', 'package-lock.json'];
const reads = (steps: readonly MockReply[]) =>
  steps.flatMap((s) =>
    (s.toolCalls ?? []).filter((c) => c.name === 'read_file').map((c) => (c.arguments as { path: string }).path),
  );
/** A request of about `chars` / 4 tokens. */
const request = (chars: number): ModelRequest => ({
  model: 'scripted-explorer',
  messages: [{ role: 'user', content: 'word '.repeat(chars / 5) }],
});

describe('the scripted explorer', () => {
  it('reads every text file in batches whatever its extension, then searches', () => {
    const steps = explorerSteps(files, {}, 3);
    expect(reads(steps)).toEqual(['a.ts', 'b.ts', 'c.md', 'd.json', 'e.ts', 'f.ts', 'notes.txt']);
    expect(steps.at(-1)?.toolCalls?.[0]?.name).toBe('search_files');
  });

  it('answers with what the run read, told after the reads, and nothing else', () => {
    const read: FileRead[] = [];
    const script = explorerScript(['a.ts', 'b.txt'], {}, 3, () => read) as (r: ModelRequest, i: number) => MockReply;
    for (let i = 0; i < 5; i++) script(request(100), i);
    read.push(fileRead({ path: 'b.txt', size: 1_234, text: '\n  Hello there  \nmore' }));
    expect(script(request(100), 5).text).toBe(
      'I read 1 of the 2 text files I listed (1,234 bytes in all): b.txt (1,234 bytes, starting "Hello there").',
    );
    expect(explorerAnswer([], 2)).toBe('I read no files, so I cannot say what this folder holds.');
  });

  it('reads the oversized file last of its reads when asked', () => {
    expect(reads(explorerSteps(files, { oversizedFile: 'package-lock.json' }, 3)).at(-1)).toBe('package-lock.json');
  });

  it('rejects, once, the first request its own count puts over its window, stating both; small requests never', () => {
    const script = explorerScript(files, { overflowWindow: 2_000 }, 3) as (r: ModelRequest, i: number) => unknown;
    const small = request(4_000);
    expect(Math.ceil(estimateTokens(small) * OVERCOUNT)).toBeLessThanOrEqual(2_000);
    // Small requests take the steps in order, however many there are.
    expect((script(small, 0) as MockReply).toolCalls?.[0]?.name).toBe('list_files');
    expect(reads([script(small, 1) as MockReply])).toEqual(['a.ts', 'b.ts', 'c.md']);
    const large = request(8_500);
    const counted = Math.ceil(estimateTokens(large) * OVERCOUNT);
    expect(estimateTokens(large)).toBeLessThan(2_000);
    expect(counted).toBeGreaterThan(2_000);
    const error = script(large, 2);
    expect(LoushoError.isInstance(error) && error.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect((error as LoushoError).details).toEqual({ limit: 2_000, requested: counted });
    // The retry of the same step is answered with that step; no second rejection.
    expect(reads([script(large, 3) as MockReply])).toEqual(['d.json', 'e.ts', 'f.ts']);
    expect(LoushoError.isInstance(script(large, 4))).toBe(false);
  });
});
