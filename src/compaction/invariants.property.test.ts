import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariants, STRATEGY_KINDS } from '../test-support/compaction-invariants.js';
import { scenario } from '../test-support/compaction-scenarios.js';

/** Random transcripts per strategy in `npm test`; `npm run fuzz` runs 10,000. */
const RUNS = 1_000;

describe('every strategy on random transcripts, through the one runner', () => {
  it.each(STRATEGY_KINDS)(
    '%s keeps the transcript valid, system and pinned messages verbatim, the input unchanged, never grows, and gets under a reachable threshold',
    async (kind) => {
      let reachable = 0;
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          const report = await checkInvariants(kind, s);
          if (report.reachable) reachable++;
          expect(report.problem).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
      // The threshold check must have had cases to check.
      if (kind !== 'compactor') expect(reachable).toBeGreaterThan(RUNS / 20);
    },
    120_000,
  );
});
