import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { examples, runTsExample } from './guide-examples.js';

/** The guides whose ```ts examples run here (cli.md's commands run in cli.test.ts). */
const GUIDES = [
  'getting-started.md',
  'compaction-and-strategies.md',
  'writing-a-strategy.md',
  'providers-and-local-models.md',
  'api-error-recovery.md',
  'benchmarks.md',
  'structured-output.md',
];

for (const guide of GUIDES) {
  const blocks = await examples(fileURLToPath(new URL(`./${guide}`, import.meta.url)));
  describe(`docs/${guide}`, () => {
    it('has examples, each with the output it prints', () => {
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) expect(block.output, block.name).toBeDefined();
    });

    it.each(blocks)('$name runs as written and prints what the page shows', async ({ code, output }) => {
      expect(await runTsExample(code)).toBe((output ?? '').trimEnd());
    });
  });
}
