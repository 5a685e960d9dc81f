/**
 * Runs every example of the README and of every guide in docs/ (each page found on disk, so a new
 * page is run without being listed) and checks that it prints what its page shows. A block that
 * is neither run here nor marked as not runnable fails doc-hygiene.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { docPages, expectedOutput, isExample, pageBlocks, setupCommands } from './doc-examples.js';
import { runExample } from './run-example.js';

// The examples read PostgreSQL's address from DATABASE_URL, as an application would; the test suite's is LOUSHO_PG_URL.
if (process.env.LOUSHO_PG_URL) process.env.DATABASE_URL = process.env.LOUSHO_PG_URL;

for (const page of docPages()) {
  const blocks = pageBlocks(page);
  const examples = blocks.filter(isExample);
  if (examples.length === 0) continue;
  describe(page, () => {
    it.each(
      examples.map((block) => ({ ...block, name: `example ${block.index} (line ${block.line}, ${block.heading})` })),
    )('$name runs as written and prints what the page shows', async (block) => {
      const expected = expectedOutput(block);
      expect(
        expected,
        'the example shows what it prints (a ```text block after it, or // prints: lines)',
      ).toBeDefined();
      expect(await runExample(block, setupCommands(blocks, block))).toBe(expected);
    });
  });
}
