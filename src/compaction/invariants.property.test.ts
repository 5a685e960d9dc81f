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

  it('two-phase gets under the threshold whenever a summary of the turns before the protected tail would, on seeded transcripts', async () => {
    // Seed 2 holds 4 transcripts where two-phase measured its protected tail on the pruned messages,
    // reached back over turns a summary could fold, and stayed above a threshold summarize reached.
    const problems: string[] = [];
    for (const s of fc.sample(scenario, { numRuns: RUNS, seed: 2 })) {
      const { problem } = await checkInvariants('two-phase', s);
      if (problem !== undefined) problems.push(problem);
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
