/**
 * The overhead benchmark (bench/overhead.ts) checks at its sampled steps that the size the
 * compaction hook measured equals estimateTokens from scratch. That check has to compare the
 * same request on both sides (the messages and the tool definition), or it can never pass.
 */
import { describe, expect, it } from 'vitest';
import { runOverhead } from '../../bench/overhead.js';
import { corpusFiles } from './corpus.js';

const corpus = corpusFiles().length > 0;
if (!corpus)
  console.warn('overhead-bench.test.ts: skipped, the corpus (../shared/corpus or LOUSHO_CORPUS) was not found.');

describe.skipIf(!corpus)('the overhead benchmark', () => {
  it("finds the hook's size of the request equal to a from-scratch estimate of the same request", async () => {
    const report = await runOverhead({ steps: 30, sampleEvery: 10, repetitions: 1, warmUp: false });
    const run = report.runs[0];
    expect(report.sampledSteps).toEqual([10, 20, 30]);
    expect(run?.mismatches).toBe(0);
    expect(run?.largestDifference).toBe(0);
    // The sizes compared include the tool definition: what the hook is handed.
    expect(report.toolTokens).toBeGreaterThan(0);
    expect(run?.counts.scratchTokens).toBe(report.tokensAt[30]);
  }, 120_000);
});
