import { describe, expect, it } from 'vitest';
import { LoushoError } from '../errors/lousho-error.js';
import type { MockReply } from '../testing/mock-model.js';
import { explorerScript } from './explorer-script.js';

const files = ['a.ts', 'b.ts', 'c.md', 'd.json', 'e.ts', 'f.ts', 'image.png', 'package-lock.json'];
const reads = (steps: ReturnType<typeof explorerScript>) =>
  steps.flatMap((s) =>
    ((s as MockReply).toolCalls ?? [])
      .filter((c) => c.name === 'read_file')
      .map((c) => (c.arguments as { path: string }).path),
  );

describe('the scripted explorer', () => {
  it('reads every source file in batches, searches, then answers', () => {
    const steps = explorerScript(files, {}, 3);
    expect(reads(steps)).toEqual(['a.ts', 'b.ts', 'c.md', 'd.json', 'e.ts', 'f.ts']);
    expect(steps.some((s) => s instanceof Error)).toBe(false);
    expect((steps.at(-1) as MockReply).text).toMatch(/^I read 6 files\./);
  });

  it('demonstrates an overflow halfway through and an oversized read when asked', () => {
    const steps = explorerScript(files, { overflowWindow: 24_000, oversizedFile: 'package-lock.json' }, 3);
    const errors = steps.filter((s): s is LoushoError => s instanceof LoushoError);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('LOUSHO_CONTEXT_OVERFLOW');
    expect(errors[0]?.details).toEqual({ limit: 24_000 });
    expect(steps.indexOf(errors[0] as LoushoError)).toBe(2);
    expect(reads(steps).at(-1)).toBe('package-lock.json');
  });
});
