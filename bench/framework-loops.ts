/**
 * The OpenAI Agents SDK's Runner (@openai/agents-core, a scripted model) over a session of
 * ours, timing only our code at each turn (see ./frameworks.ts); the AI SDK's loops are in
 * ./ai-sdk-loops.ts.
 */
import {
  Agent,
  type AgentInputItem,
  tool as agentsTool,
  MemorySession,
  type Model,
  Runner,
  type Session,
  Usage,
} from '@openai/agents-core';
import { keptHeap, type LoopRun, read, referenceWork } from './ai-sdk-loops.js';
import { StepTimes, startClock } from './step-clock.js';

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

/** Which methods of a session are our code: all of them, or the ones named. */
export type Timed = 'all' | readonly string[];

/** A Session that forwards to `session`, adding the time of the methods named in `timed` to the current turn. */
function timedSession(session: object, timed: Timed, times: StepTimes): Session {
  return new Proxy(session, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (timed !== 'all' && !timed.includes(String(key))) return value.bind(target);
      return (...args: unknown[]) => times.time(() => value.apply(target, args));
    },
  }) as Session;
}

/**
 * `session` with the time of its methods named in `theirs` taken off the current turn: the
 * session an integration of ours wraps, whose own work inside our timed calls (storing the
 * items the runner hands over, which a run without us does too) is not our code's.
 */
export function untimed<S extends object>(session: S, theirs: readonly string[], times: StepTimes): S {
  return new Proxy(session, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (!theirs.includes(String(key))) return value.bind(target);
      return async (...args: unknown[]) => {
        const stop = startClock();
        try {
          return await value.apply(target, args);
        } finally {
          const took = stop();
          times.add({ wallMs: -took.wallMs, cpuMs: -took.cpuMs });
        }
      };
    },
  });
}

/** A session for the runner loop: the object handed to the runner, which of its methods are ours, and its stored items. */
export interface RunnerSession {
  session: object;
  timed: Timed;
  /** The stored items, whose text the bench recounts at the last turn; none for the reference, which is handed no prompt. */
  items?: () => Promise<readonly unknown[]>;
  /** Removes what the session left behind (a database file), after the loop. */
  close?: () => Promise<void>;
  /** For the reference: the heap kept at the last turn (see referenceSession()). */
  heapBytes?: () => number | undefined;
  /** Told before the last turn runs. */
  lastTurn?: () => void;
  /** For the reference: the same work again right after it at each turn (see referenceWork()). */
  again?: StepTimes;
}

/**
 * Their MemorySession with the reference work (./ai-sdk-loops.ts referenceWork()) timed in
 * our place, in each turn's last addItems() (the one with the turn's answer), and at the last
 * turn the heap the runner keeps then: the yardstick for the sessions' own growth.
 */
export function referenceSession(times: StepTimes): RunnerSession {
  const inner = new MemorySession();
  const again = new StepTimes();
  let last = false;
  let heap: number | undefined;
  const session = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key !== 'addItems') return value.bind(target);
      return async (items: AgentInputItem[]) => {
        await value.call(target, items);
        if (items.at(-1)?.type !== 'message' || (items.at(-1) as { role?: string }).role !== 'assistant') return;
        await referenceWork(times, again);
        if (last) heap = keptHeap();
      };
    },
  });
  return {
    session,
    timed: [],
    again,
    heapBytes: () => heap,
    lastTurn: () => {
      last = true;
    },
  };
}

/** Runs `turns` turns of the Agents SDK's Runner over the session `make` gives (handed the loop's step times, for untimed()). */
export async function runnerLoop(turns: number, make: (times: StepTimes) => RunnerSession): Promise<LoopRun> {
  const times = new StepTimes();
  const { session, timed, items, close, heapBytes, lastTurn, again } = make(times);
  const agent = new Agent({
    name: 'reviewer',
    instructions: 'Review the repository.',
    model: new ScriptedModel(),
    tools: [
      agentsTool({
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
  const wrapped = timedSession(session, timed, times);
  let seen: readonly unknown[] | undefined;
  for (let turn = 0; turn < turns; turn++) {
    times.next();
    if (turn === turns - 1) {
      seen = await items?.();
      lastTurn?.();
    }
    await runner.run(agent, `question ${turn}`, { session: wrapped });
  }
  await close?.();
  const heap = heapBytes?.();
  return { times, seen, ...(heap === undefined ? {} : { heapBytes: heap }), ...(again === undefined ? {} : { again }) };
}
