/**
 * How much code one compacting step runs: the named functions, and the files of src/ they are
 * in, that one call of the compaction hook's preGenerate executes when it compacts (the default,
 * `compaction: true`, on a 16K window with 30 file reads), counted with V8's precise coverage
 * (call counts) after a warm-up step on another transcript, the tokenizer included; making the
 * hook and the run is not counted, nor what the check of the result does after the step.
 *
 * Run: npx tsx scripts/step-footprint.ts [--list]
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { createCompactionHook } from '../src/compaction/compaction-hook.js';
import { RunState } from '../src/executor/run-state.js';
import { readingTranscript } from '../src/test-support/transcripts.js';
import { mockModel } from '../src/testing/mock-model.js';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** A run of 30 file reads on a 16K window and its compaction hook, ready for a step that compacts. */
function compactingStep(): () => Promise<boolean> {
  const messages = readingTranscript(30);
  const run = new RunState({
    messages,
    provider: mockModel(['ok']),
    abortSignal: undefined,
    emit: () => {},
    contextWindow: 16_000,
  });
  run.step = 1;
  const hook = createCompactionHook({ contextWindow: 16_000 });
  const before = JSON.stringify(messages).length;
  return async () => {
    await hook.preGenerate?.({ request: { model: 'gpt-4o', messages }, run });
    return JSON.stringify(messages).length < before;
  };
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
if (!(await compactingStep()())) throw new Error('the warm-up step did not compact');
const measured = compactingStep();
await session.post('Profiler.takePreciseCoverage');
if (!(await measured())) throw new Error('the measured step did not compact');
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');

const functions = new Set<string>();
const files = new Set<string>();
for (const script of result) {
  const path = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
  if (!path.startsWith(src) || /\.test\.ts$/.test(path) || path.includes('/test-support/')) continue;
  for (const fn of script.functions) {
    // __name is the helper tsx adds to keep function names, not code of ours.
    if (fn.functionName === '' || fn.functionName === '__name' || (fn.ranges[0]?.count ?? 0) === 0) continue;
    functions.add(`${path.slice(src.length)} ${fn.functionName}`);
    files.add(path.slice(src.length));
  }
}
console.log(`one compacting step: ${functions.size} named functions in ${files.size} files of src/`);
if (process.argv.includes('--list')) for (const f of [...functions].sort()) console.log(`  ${f}`);
