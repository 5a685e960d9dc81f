/**
 * The frameworks benchmark: our compaction inside the other frameworks' own loops, 1,000
 * steps each. The AI SDK's generateText tool loop (ai 6, a mock language model of
 * 'ai/test') with compactionMiddleware() and with compactionPrepareStep(); the OpenAI
 * Agents SDK's Runner (@openai/agents-core, a scripted model) with compactingSession()
 * over their MemorySession (default and lean mode) and with our AgentsStoreSession. It
 * reports the time our code takes per step over the first and the last tenth of the steps,
 * their ratio, and how much less it is at the last step than a plain gpt-tokenizer recount
 * of the prompt our code saw there.
 *
 * Run it alone with `npm run bench -- frameworks` or `npx tsx bench/frameworks.ts`.
 */

import { pathToFileURL } from 'node:url';

import {
  Agent,
  type AgentInputItem,
  MemorySession,
  type Model,
  Runner,
  type Session,
  Usage,
} from '@openai/agents-core';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { AgentsStoreSession } from '../src/integrations/agents-store-session.js';
import { compactingSession } from '../src/integrations/compacting-session.js';
import { compactionMiddleware } from '../src/integrations/compaction-middleware.js';
import { compactionPrepareStep } from '../src/integrations/compaction-prepare-step.js';
import { MemorySessionStore } from '../src/sessions/store.js';
import { prose } from '../src/test-support/text.js';
import { formatInt, formatMs, formatRatio, median } from './stats.js';

export const FRAMEWORK_STEPS = 1_000;
/** Characters of each tool result (about 450 tokens). */
const RESULT_CHARS = 2_000;
const WINDOW = 128_000;
const MODEL = 'gpt-4o-mini';

export interface FrameworkRow {
  name: string;
  loop: string;
  steps: number;
  /** Our code's time per step, median over the first and the last tenth of the steps. */
  firstMedianMs: number;
  lastMedianMs: number;
  /** The time of a plain gpt-tokenizer recount of the prompt our code saw at the last step. */
  recountMs: number;
  /** That prompt's gpt-tokenizer tokens. */
  recountTokens: number;
}

export interface FrameworksReport {
  rows: FrameworkRow[];
  seconds: number;
}

const read = (i: number) => `// src/file${i}.ts\n${prose(i, RESULT_CHARS)}`;

/** A plain recount: gpt-tokenizer's countTokens of each message's or item's text (JSON for what is not a string), summed. */
function recount(list: readonly unknown[]): { ms: number; tokens: number } {
  const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  const times: number[] = [];
  let tokens = 0;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    tokens = 0;
    for (const entry of list) {
      const { content, output, arguments: args } = entry as Record<string, unknown>;
      const parts = Array.isArray(content) ? content : [content];
      for (const part of parts) {
        if (part === undefined) continue;
        const p = part as Record<string, unknown>;
        const value = typeof part === 'string' ? part : (p.text ?? p.input ?? p.output ?? part);
        tokens += gptTokenizerCount(text(value));
      }
      if (output !== undefined) tokens += gptTokenizerCount(text(output));
      if (args !== undefined) tokens += gptTokenizerCount(text(args));
    }
    times.push(performance.now() - t);
  }
  return { ms: Math.min(...times), tokens };
}

function row(name: string, loop: string, perStep: readonly number[], seen: readonly unknown[]): FrameworkRow {
  const tenth = Math.max(1, Math.floor(perStep.length / 10));
  const { ms, tokens } = recount(seen);
  const done = {
    name,
    loop,
    steps: perStep.length,
    firstMedianMs: median(perStep.slice(0, tenth)),
    lastMedianMs: median(perStep.slice(-tenth)),
    recountMs: ms,
    recountTokens: tokens,
  };
  console.log(`[bench] frameworks: ${JSON.stringify(done)}`);
  return done;
}

/** A mock model of 'ai/test' that calls `read` at every step, with the usage of a real call. */
function readingModel() {
  let step = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    modelId: MODEL,
    doGenerate: async () => {
      step++;
      // The mock keeps every call's options: 1,000 prompts of up to 2,000 messages would load the heap, and every timing with it.
      model.doGenerateCalls.length = 0;
      return {
        content: [
          { type: 'tool-call', toolCallId: `call_${step}`, toolName: 'read', input: JSON.stringify({ i: step }) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 10, text: 10, reasoning: undefined },
        },
        warnings: [],
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

export async function middlewareLoop(steps: number): Promise<FrameworkRow> {
  const middleware = compactionMiddleware({ contextWindow: WINDOW, model: MODEL });
  const perStep: number[] = [];
  let seen: readonly unknown[] = [];
  const timed: typeof middleware = {
    specificationVersion: 'v3',
    async transformParams(options) {
      seen = options.params.prompt;
      const t = performance.now();
      const params = await middleware.transformParams(options);
      perStep.push(performance.now() - t);
      return params;
    },
    async wrapGenerate(options) {
      const result = await options.doGenerate();
      const t = performance.now();
      const out = await middleware.wrapGenerate({ ...options, doGenerate: async () => result });
      perStep[perStep.length - 1] = (perStep[perStep.length - 1] as number) + performance.now() - t;
      return out;
    },
    wrapStream: (options) => middleware.wrapStream(options),
  };
  const model = wrapLanguageModel({ model: readingModel(), middleware: timed });
  await generateText({ model, tools: { read: readTool }, stopWhen: stepCountIs(steps), prompt });
  return row('compactionMiddleware()', 'generateText tool loop (ai 6)', perStep, seen);
}

export async function prepareStepLoop(steps: number): Promise<FrameworkRow> {
  const prepare = compactionPrepareStep({ contextWindow: WINDOW, model: MODEL });
  const perStep: number[] = [];
  let seen: readonly unknown[] = [];
  await generateText({
    model: readingModel(),
    tools: { read: readTool },
    stopWhen: stepCountIs(steps),
    prompt,
    prepareStep: async (step) => {
      seen = step.messages;
      const t = performance.now();
      const result = await prepare(step);
      perStep.push(performance.now() - t);
      return result;
    },
  });
  return row('compactionPrepareStep()', 'generateText tool loop (ai 6)', perStep, seen);
}

/** Their Model, scripted: each question gets one call of `read`, then an answer. */
class ScriptedModel implements Model {
  #calls = 0;

  async getResponse(request: Parameters<Model['getResponse']>[0]) {
    const input = request.input as AgentInputItem[];
    const last = input[input.length - 1];
    const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (last?.type === 'function_call_result') {
      return {
        usage,
        output: [
          {
            type: 'message' as const,
            role: 'assistant' as const,
            status: 'completed' as const,
            content: [{ type: 'output_text' as const, text: `done with ${last.callId}` }],
          },
        ],
      };
    }
    const turn = ++this.#calls;
    return {
      usage,
      output: [
        {
          type: 'function_call' as const,
          callId: `call_${turn}`,
          name: 'read',
          arguments: JSON.stringify({ i: turn }),
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: the benchmark runs the runner without streaming.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed');
  }
}

type Timed = 'all' | readonly string[];

/** A Session that forwards to `session`, adding the time of the methods named in `timed` to the current turn. */
function timedSession(session: object, timed: Timed, perTurn: number[]): Session {
  return new Proxy(session, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (timed !== 'all' && !timed.includes(String(key))) return value.bind(target);
      return async (...args: unknown[]) => {
        const t = performance.now();
        const out = await value.apply(target, args);
        perTurn[perTurn.length - 1] = (perTurn[perTurn.length - 1] as number) + performance.now() - t;
        return out;
      };
    },
  }) as Session;
}

export async function runnerLoop(
  name: string,
  turns: number,
  make: () => { session: object; timed: Timed; items: () => Promise<readonly unknown[]> },
): Promise<FrameworkRow> {
  const { session, timed, items } = make();
  const perTurn: number[] = [];
  const agent = new Agent({
    name: 'reviewer',
    instructions: 'Review the repository.',
    model: new ScriptedModel(),
    tools: [
      (await import('@openai/agents-core')).tool({
        name: 'read',
        description: 'Read a file of the repository',
        parameters: {
          type: 'object',
          properties: { i: { type: 'number' } },
          required: ['i'],
          additionalProperties: false,
        },
        strict: true,
        execute: async (input) => read((input as { i: number }).i),
      }),
    ],
  });
  const runner = new Runner({ tracingDisabled: true });
  const wrapped = timedSession(session, timed, perTurn);
  let seen: readonly unknown[] = [];
  for (let turn = 0; turn < turns; turn++) {
    perTurn.push(0);
    if (turn === turns - 1) seen = await items();
    await runner.run(agent, `question ${turn}`, { session: wrapped });
  }
  return row(name, 'Runner.run per turn (@openai/agents-core 0.14)', perTurn, seen);
}

export async function runFrameworks(options: { steps?: number } = {}): Promise<FrameworksReport> {
  const started = performance.now();
  const steps = options.steps ?? FRAMEWORK_STEPS;
  const compacting = (inner: Session | AgentsStoreSession, mode?: 'lean') =>
    compactingSession({ session: inner, contextWindow: WINDOW, model: MODEL, ...(mode ? { mode } : {}) });
  const rows: FrameworkRow[] = [
    await middlewareLoop(steps),
    await prepareStepLoop(steps),
    await runnerLoop('compactingSession() over MemorySession', steps, () => {
      const inner = new MemorySession();
      return { session: compacting(inner), timed: ['runCompaction', 'addItems'], items: () => inner.getItems() };
    }),
    await runnerLoop("compactingSession({ mode: 'lean' }) over MemorySession", steps, () => {
      const inner = new MemorySession();
      return {
        session: compacting(inner, 'lean'),
        timed: ['runCompaction', 'addItems'],
        items: () => inner.getItems(),
      };
    }),
    await runnerLoop('AgentsStoreSession (MemorySessionStore)', steps, () => {
      const session = new AgentsStoreSession({ store: new MemorySessionStore(), sessionId: 'bench' });
      return { session, timed: 'all', items: () => session.getItems() };
    }),
    await runnerLoop('compactingSession() over AgentsStoreSession', steps, () => {
      const inner = new AgentsStoreSession({ store: new MemorySessionStore(), sessionId: 'bench' });
      return { session: compacting(inner), timed: 'all', items: () => inner.getItems() };
    }),
  ];
  return { rows, seconds: (performance.now() - started) / 1000 };
}

export function renderFrameworksMarkdown(report: FrameworksReport): string {
  const lines = [
    '## Inside other frameworks',
    '',
    `Our compaction inside the other frameworks' own loops, ${formatInt(report.rows[0]?.steps ?? 0)} steps each, ` +
      `a ${formatInt(RESULT_CHARS)}-character tool result a step, a ${formatInt(WINDOW)}-token window. "Per step" is ` +
      "the time our code takes at a step (the middleware's transformParams and wrapGenerate; the prepareStep call; " +
      'for compactingSession over their MemorySession its runCompaction and addItems, the rest being their ' +
      "session's own work; every Session method of AgentsStoreSession and of a compactingSession over it), median " +
      'over the first and the last tenth of the steps. "Recount" is a plain gpt-tokenizer countTokens (o200k) of ' +
      'the text of the prompt our code saw at the last step (what the framework handed it), the least of 3 runs.',
    '',
    '| Integration | Loop | First tenth | Last tenth | Last / first | Recount at the last step | Recount / last tenth |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of report.rows) {
    lines.push(
      `| ${r.name} | ${r.loop} | ${formatMs(r.firstMedianMs)} | ${formatMs(r.lastMedianMs)} | ` +
        `${formatRatio(r.lastMedianMs / r.firstMedianMs)} | ${formatMs(r.recountMs)} (${formatInt(r.recountTokens)} tokens) | ` +
        `${formatRatio(r.recountMs / r.lastMedianMs)} |`,
    );
  }
  lines.push('', `Run time: ${report.seconds.toFixed(0)} s.`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await runFrameworks();
  console.log(renderFrameworksMarkdown(report));
}
