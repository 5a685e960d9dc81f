/**
 * npm run fuzz: every compaction strategy on 10,000 random transcripts (LOUSHO_FUZZ_RUNS to
 * change it), through compactMessages(), checking the invariants of
 * src/test-support/compaction-invariants.ts. Prints the counts; exits 1 on any problem.
 */
import fc from 'fast-check';
import { checkInvariants, STRATEGY_KINDS } from '../src/test-support/compaction-invariants.js';
import { scenario } from '../src/test-support/compaction-scenarios.js';

const runs = Number(process.env.LOUSHO_FUZZ_RUNS ?? 10_000);
let failures = 0;
for (const kind of STRATEGY_KINDS) {
  const started = performance.now();
  let reachable = 0;
  const problems: string[] = [];
  const seed = Date.now();
  for (const s of fc.sample(scenario, { numRuns: runs, seed })) {
    const report = await checkInvariants(kind, s);
    if (report.reachable) reachable++;
    if (report.problem !== undefined) problems.push(report.problem);
  }
  failures += problems.length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${kind.padEnd(10)} ${runs} transcripts (seed ${seed}): ${problems.length} problems; ` +
      `threshold reachable in ${reachable}, checked there; ${seconds} s`,
  );
  for (const problem of problems.slice(0, 3)) console.log(`  ${problem}`);
}
console.log(failures === 0 ? 'fuzz: no problems' : `fuzz: ${failures} problems`);
process.exitCode = failures === 0 ? 0 : 1;
