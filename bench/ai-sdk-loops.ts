/**
 * The AI SDK's two tool loops with our integrations in them, each timing only our code at
 * each step (see ./frameworks.ts): generateText and streamText (ai 6, a mock language
 * model of 'ai/test' that calls `read` at every step), with compactionMiddleware() or
 * compactionPrepareStep(), or with a fixed reference work in our place.
 *
 * The two loops differ in what they keep: generateText stores, with every step's result, a
 * structuredClone() of all the messages the run has produced so far, so its heap grows with
 * the square of the steps (about 2 GB at step 1,000 here); streamText keeps one list. The
 * reference (gpt-tokenizer counting one fresh result of the same size at every step, the
 * work our code does per step) shows what such a heap does to a step's work that does not
 * change: it is the yardstick for the integrations' own growth.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateText, type LanguageModelMiddleware, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { compactionMiddleware } from '../src/integrations/compaction-middleware.js';
import { compactionPrepareStep } from '../src/integrations/compaction-prepare-step.js';
import { prose } from '../src/test-support/text.js';
import { StepTimes } from './step-clock.js';

/** Characters of each tool result (about 450 tokens). */
export const RESULT_CHARS = 2_000;
export const WINDOW = 128_000;
export const MODEL = 'gpt-4o-mini';

/** What one loop gives: our code's time at each step, the prompt our code was handed at the last one, and the heap then. */
export interface LoopRun {
  times: StepTimes;
  /** The prompt handed to our code at the last step; undefined for the reference, which is handed none. */
  seen: readonly unknown[] | undefined;
  /** For the reference: the heap the loop keeps at its last step (used heap after a full collection), in bytes. */
  heapBytes?: number;
  /** For the reference: the same work once more right after it at each step, timed on its own (see referenceWork()). */
  again?: StepTimes;
}

/** The used heap after a full collection: what the process keeps (the gc of --expose-gc, turned on here). */
export function keptHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

export const read = (i: number) => `// src/file${i}.ts\n${prose(i, RESULT_CHARS)}`;

const usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};
const toolCalls = { unified: 'tool-calls' as const, raw: undefined };

/** A mock model of 'ai/test' that calls `read` at every step, with the usage of a real call, whole or streamed. */
function readingModel() {
  let step = 0;
  const call = () => ({
    type: 'tool-call' as const,
    toolCallId: `call_${++step}`,
    toolName: 'read',
    input: JSON.stringify({ i: step }),
  });
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    modelId: MODEL,
    doGenerate: async () => {
      // The mock keeps every call's options: 1,000 prompts of up to 2,000 messages would load the heap, and every timing with it.
      model.doGenerateCalls.length = 0;
      return { content: [call()], finishReason: toolCalls, usage, warnings: [] };
    },
    doStream: async () => {
      model.doStreamCalls.length = 0;
      return {
        stream: convertArrayToReadableStream([
          { type: 'stream-start' as const, warnings: [] },
          call(),
          { type: 'finish' as const, finishReason: toolCalls, usage },
        ]),
      };
    },
  });
  return model;
}

const readTool = tool({
  description: 'Read a file of the repository',
  inputSchema: z.object({ i: z.number() }),
  execute: async ({ i }) => read(i),
});

const prompt = 'Review every file of the repository.';

/** Which of the AI SDK's loops runs. */
export type AiSdkLoop = 'generateText' | 'streamText';

/** Runs `steps` steps of the loop with the middleware (or none) and prepareStep given. */
async function runLoop(
  loop: AiSdkLoop,
  steps: number,
  middleware: LanguageModelMiddleware | undefined,
  prepareStep: ((step: { messages: unknown[] }) => unknown) | undefined,
): Promise<void> {
  const base = readingModel();
  const model = middleware === undefined ? base : wrapLanguageModel({ model: base, middleware });
  const settings = {
    model,
    tools: { read: readTool },
    stopWhen: stepCountIs(steps),
    prompt,
    ...(prepareStep === undefined ? {} : { prepareStep: prepareStep as never }),
  };
  if (loop === 'generateText') await generateText(settings);
  else {
    const result = streamText(settings);
    await result.consumeStream();
    await result.steps;
  }
}

export async function middlewareLoop(loop: AiSdkLoop, steps: number): Promise<LoopRun> {
  const middleware = compactionMiddleware({ contextWindow: WINDOW, model: MODEL });
  const times = new StepTimes();
  let seen: readonly unknown[] = [];
  const timed: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    transformParams(options) {
      seen = options.params.prompt;
      times.next();
      return times.time(() => middleware.transformParams(options));
    },
    async wrapGenerate(options) {
      const result = await options.doGenerate();
      return times.time(() => middleware.wrapGenerate({ ...options, doGenerate: async () => result }));
    },
    async wrapStream(options) {
      // Our wrapStream reads the parts as the loop reads them (the finish part calibrates): read them here, timed.
      const result = await options.doStream();
      const parts = await times.time(async () => {
        const ours = await middleware.wrapStream({ ...options, doStream: async () => result });
        return convertReadableStreamToArray(ours.stream);
      });
      return { ...result, stream: convertArrayToReadableStream(parts) };
    },
  };
  await runLoop(loop, steps, timed, undefined);
  return { times, seen };
}

export async function prepareStepLoop(loop: AiSdkLoop, steps: number): Promise<LoopRun> {
  const prepare = compactionPrepareStep({ contextWindow: WINDOW, model: MODEL });
  const times = new StepTimes();
  let seen: readonly unknown[] = [];
  await runLoop(loop, steps, undefined, (step) => {
    seen = step.messages;
    times.next();
    return times.time(() => prepare(step as never));
  });
  return { times, seen };
}

/**
 * The reference work, timed as the current step's: gpt-tokenizer counting a text different at
 * each step (as a new result is), of the size of a result. Then the same work on another fresh
 * text right after it, timed as `again`'s step: beside the first, what that work costs when it
 * is not the first code to run after the loop's own work since the last step.
 */
export async function referenceWork(times: StepTimes, again: StepTimes): Promise<void> {
  const text = read(times.length + 1_000_000);
  await times.time(() => gptTokenizerCount(text));
  const next = read(times.length + 2_000_000);
  again.next();
  await again.time(() => gptTokenizerCount(next));
}

/** The loop with a fixed work in our place at each step: gpt-tokenizer counting a fresh result of the size each step adds. */
export async function referenceLoop(loop: AiSdkLoop, steps: number): Promise<LoopRun> {
  const times = new StepTimes();
  const again = new StepTimes();
  let heapBytes = 0;
  await runLoop(loop, steps, undefined, async () => {
    times.next();
    await referenceWork(times, again);
    // After the last step's timing: what the loop keeps by then.
    if (times.length === steps) heapBytes = keptHeap();
    return undefined;
  });
  return { times, seen: undefined, heapBytes, again };
}
