/**
 * How much code one compacting step runs: the named functions, and the files of src/ they are
 * in, that one call of the compaction hook's preGenerate executes when it compacts (the default,
 * `compaction: true`, on a 16K window with 30 file reads), counted with V8's precise coverage
 * (call counts) after a warm-up step on another transcript, the tokenizer included; making the
 * hook and the run is not counted, nor what the check of the result does after the step.
 *
 * Run: npx tsx scripts/step-footprint.ts [--whole] [--list]
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { createCompactionHook } from '../src/compaction/compaction-hook.js';
import { AgentExecutor } from '../src/executor/agent-executor.js';
import { HookRegistry } from '../src/executor/hook-registry.js';
import { RunState } from '../src/executor/run-state.js';
import { createOpenAICompatible } from '../src/providers/openai-compatible.js';
import { sendJson, startLoopbackServer } from '../src/test-support/loopback-server.js';
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
  });
  run.step = 1;
  const hook = createCompactionHook({ contextWindow: 16_000 });
  const before = JSON.stringify(messages).length;
  return async () => {
    await hook.preGenerate?.({ request: { model: 'gpt-4o', messages }, run });
    return JSON.stringify(messages).length < before;
  };
}

/**
 * A whole compacting step (--whole): AgentExecutor.execute() on a transcript of 30 file reads with
 * the OpenAI-compatible provider, which sends the request to a loopback server over HTTP and reads
 * its answer: the preflight, the compaction hook, the request, the reply and the step's end.
 */
async function wholeStep(): Promise<() => Promise<boolean>> {
  const server = await startLoopbackServer((_request, response) =>
    sendJson(response, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Read.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 9_000, completion_tokens: 2, total_tokens: 9_002 },
    }),
  );
  const provider = createOpenAICompatible({ baseURL: `${server.url}/v1`, apiKey: 'test', name: 'local' })('m');
  const messages = readingTranscript(30);
  const before = JSON.stringify(messages).length;
  return async () => {
    const result = await AgentExecutor.execute({
      agent: { compaction: { contextWindow: 16_000 } } as never,
      input: messages,
      provider,
      hooks: new HookRegistry([createCompactionHook({ contextWindow: 16_000 })]),
    });
    await server.close();
    return JSON.stringify(result.messages).length < before;
  };
}

const whole = process.argv.includes('--whole');
const makeStep = whole ? wholeStep : async () => compactingStep();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
if (!(await (await makeStep())())) throw new Error('the warm-up step did not compact');
const measured = await makeStep();
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
console.log(
  `${whole ? 'one whole compacting step (OpenAI-compatible provider)' : 'one compacting step (the hook)'}: ${functions.size} named functions in ${files.size} files of src/`,
);
if (process.argv.includes('--list')) for (const f of [...functions].sort()) console.log(`  ${f}`);
