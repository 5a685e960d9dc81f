import {
  Agent,
  type AgentInputItem,
  isOpenAIResponsesCompactionAwareSession,
  MemorySession,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type OpenAIResponsesCompactionAwareSession,
  Runner,
  type Session,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { AgentsItem } from '../converters/agents-items-types.js';
import { fromAgentsItems } from '../converters/from-agents-items.js';
import { validateMessages } from '../messages/validate.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { MemorySessionStore } from '../sessions/store.js';
import { prose } from '../test-support/text.js';
import { mockModel } from '../testing/mock-model.js';
import type { AgentsSession } from './agents-session.js';
import { AgentsStoreSession } from './agents-store-session.js';
import { compactingSession } from './compacting-session.js';

/** The real @openai/agents-core (0.14.3, the newest that runs on Node 20) driving our sessions. */

const TURNS = 8;
const READS = 2;
const SIZE = 6_000;
const MODEL = 'gpt-4o-mini';
/** What the scripted model reports for each of its steps. */
const STEP_USAGE = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** Their function tool `read`, whose output is `size` characters of a file. */
const readFile = (size: number) =>
  tool({
    name: 'read',
    description: 'Read a file of the repository',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    },
    strict: true,
    execute: async (input) => {
      const { path } = input as { path: string };
      return `// ${path}\n${prose(path.length * 31 + Number(/\d+/.exec(path)?.[0] ?? 0), size)}`;
    },
  });

const textOf = (item: AgentInputItem | undefined): string =>
  item?.type === 'message' && typeof item.content === 'string' ? item.content : '';

/** What one step of the script answers: the response_done payload of their stream. */
type Reply = Extract<StreamEvent, { type: 'response_done' }>['response'];

/**
 * Their Model interface, scripted: to each question it answers with READS calls of `read`,
 * one per step, then with a text. It keeps what the runner sent it.
 */
class ScriptedModel implements Model {
  readonly inputs: AgentInputItem[][] = [];

  reply(request: ModelRequest): Reply {
    const input: AgentInputItem[] =
      typeof request.input === 'string' ? [{ type: 'message', role: 'user', content: request.input }] : request.input;
    this.inputs.push(structuredClone(input));
    const asked = input.findLastIndex((i) => i.type === 'message' && i.role === 'user');
    const turn = Number(/question (\d+)/.exec(textOf(input[asked]))?.[1] ?? Number.NaN);
    if (Number.isNaN(turn)) throw new Error(`the last user message is not a question: ${JSON.stringify(input[asked])}`);
    const done = input.slice(asked).filter((i) => i.type === 'function_call_result').length;
    if (done < READS) {
      const callId = `call_${turn}_${done}`;
      const path = `src/f${turn}.${done}.ts`;
      return {
        id: `resp_${callId}`,
        usage: STEP_USAGE,
        output: [
          {
            type: 'function_call',
            id: `fc_${turn}_${done}`,
            callId,
            name: 'read',
            arguments: JSON.stringify({ path }),
          },
        ],
      };
    }
    return {
      id: `resp_answer_${turn}`,
      usage: STEP_USAGE,
      output: [
        {
          type: 'message',
          id: `msg_${turn}`,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: `answer ${turn}` }],
        },
      ],
    };
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const { id, output } = this.reply(request);
    return { responseId: id, usage: new Usage(STEP_USAGE), output };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    yield { type: 'response_done', response: this.reply(request) };
  }
}

/** Their sessions are ours as they are (AgentsSession is generic over their item type). */
const ours = (session: Session): AgentsSession<AgentInputItem> => session;
/** Our store session keeps our item type; a compacting wrapper of theirs is a Session as it is (the last test). */
const theirs = (session: AgentsSession<AgentsItem> | AgentsSession<AgentInputItem>): Session => session as Session;
const asItems = (items: readonly unknown[]) => items as readonly AgentsItem[];

/** Runs `turns` questions through their Runner on `session`; resolves to the model and each run's usage. */
async function converse(session: AgentsSession, options: { stream?: boolean; turns?: number; size?: number } = {}) {
  const model = new ScriptedModel();
  const tools = [readFile(options.size ?? SIZE)];
  const agent = new Agent({ name: 'reviewer', instructions: 'Review the repository.', model, tools });
  const runner = new Runner({ tracingDisabled: true });
  const usages: Usage[] = [];
  for (let turn = 0; turn < (options.turns ?? TURNS); turn++) {
    const question = `question ${turn}`;
    if (options.stream === true) {
      const result = await runner.run(agent, question, { session: theirs(session), stream: true });
      for await (const _event of result) {
        // drain the stream
      }
      await result.completed;
      expect(result.finalOutput).toBe(`answer ${turn}`);
      usages.push(result.state.usage);
    } else {
      const result = await runner.run(agent, question, { session: theirs(session) });
      expect(result.finalOutput).toBe(`answer ${turn}`);
      usages.push(result.state.usage);
    }
  }
  return { model, usages };
}

const tokens = (items: readonly unknown[]) => estimateTokens(fromAgentsItems(asItems(items)), MODEL);

/** Every call of the script is stored once, with its output, in the order the model made them. */
function expectEveryCallAnswered(list: readonly unknown[]) {
  const items = asItems(list);
  const calls = items.flatMap((i) => (i.type === 'function_call' ? [i.callId] : []));
  const results = items.flatMap((i) => (i.type === 'function_call_result' ? [i.callId] : []));
  const expected = Array.from({ length: TURNS * READS }, (_, n) => `call_${Math.floor(n / READS)}_${n % READS}`);
  expect(calls).toEqual(expected);
  expect(results).toEqual(expected);
  validateMessages(fromAgentsItems(items), { pendingCalls: true });
}

/** The plain run: their MemorySession, no compaction. */
async function plainRun() {
  const session = new MemorySession();
  const { model } = await converse(ours(session));
  return { items: await session.getItems(), model };
}

describe('compactingSession() under the real @openai/agents-core Runner', () => {
  it('stores a smaller history than a plain MemorySession, every call with its output', async () => {
    const plain = await plainRun();
    const inner = new MemorySession();
    const session = compactingSession({
      session: ours(inner),
      model: MODEL,
      contextWindow: 12_000,
      protectedTokens: 3_000,
    });
    const { model } = await converse(session);
    const items = await inner.getItems();

    expectEveryCallAnswered(plain.items);
    expectEveryCallAnswered(items);
    expect(tokens(plain.items)).toBeGreaterThan(12_000);
    expect(tokens(items)).toBeLessThan(12_000 * 0.9);
    expect(JSON.stringify(items).length).toBeLessThan(JSON.stringify(plain.items).length / 2);
    expect(JSON.stringify(items)).toContain('[pruned: read(');
    // The newest turn is kept as the runner stored it.
    expect(items.slice(-(2 * READS + 2))).toEqual(plain.items.slice(-(2 * READS + 2)));
    // The model was sent the compacted history at the start of the last question.
    const lastAsked = (m: ScriptedModel) => m.inputs[m.inputs.length - 1 - READS] ?? [];
    expect(textOf(lastAsked(model).at(-1))).toBe(`question ${TURNS - 1}`);
    expect(tokens(lastAsked(model))).toBeLessThan(tokens(lastAsked(plain.model)) / 2);
  });

  it('works the same when the runner streams', async () => {
    const inner = new MemorySession();
    const session = compactingSession({
      session: ours(inner),
      model: MODEL,
      contextWindow: 12_000,
      protectedTokens: 3_000,
    });
    await converse(session, { stream: true });
    const items = await inner.getItems();
    expectEveryCallAnswered(items);
    expect(tokens(items)).toBeLessThan(12_000 * 0.9);
  });

  it('compacts our AgentsStoreSession over a MemorySessionStore the same way', async () => {
    const plain = await plainRun();
    const store = new MemorySessionStore();
    const inner = new AgentsStoreSession({ store, sessionId: 'reviewer' });
    const session = compactingSession({ session: inner, model: MODEL, contextWindow: 12_000, protectedTokens: 3_000 });
    await converse(session);
    const items = await inner.getItems();
    expectEveryCallAnswered(items);
    expect(tokens(items)).toBeLessThan(Math.min(12_000 * 0.9, tokens(plain.items) / 2));
    const stored = await inner.messages();
    validateMessages(stored);
    expect(stored.filter((m) => m.role === 'tool')).toHaveLength(TURNS * READS);
    expect(await new AgentsStoreSession({ store, sessionId: 'reviewer' }).getItems()).toEqual(items);
  });

  it('adds the summarizer calls of runCompaction() to the usage of the run', async () => {
    const summarizer = mockModel(
      () => ({
        text: 'Summary: the questions were answered by reading files.',
        usage: { inputTokens: 100, outputTokens: 10 },
      }),
      { modelId: 'summarizer' },
    );
    const inner = new MemorySession();
    const session = compactingSession({
      session: ours(inner),
      model: MODEL,
      contextWindow: 4_000,
      protectedTokens: 1_000,
      strategy: twoPhaseStrategy({ model: summarizer }),
    });
    const turns = 30;
    const { usages } = await converse(session, { turns, size: 2_000 });
    const items = await inner.getItems();
    validateMessages(fromAgentsItems(asItems(items)), { pendingCalls: true });
    expect(tokens(items)).toBeLessThan(4_000 * 0.9);
    const last = items.slice(-(2 * READS + 2));
    expect(textOf(last[0])).toBe(`question ${turns - 1}`);
    expect(last.filter((i) => i.type === 'function_call_result')).toHaveLength(READS);
    expect(summarizer.calls.length).toBeGreaterThan(0);
    const modelCalls = READS + 1;
    const extraInput = usages.reduce((n, u) => n + u.inputTokens - modelCalls * STEP_USAGE.inputTokens, 0);
    expect(extraInput).toBe(100 * summarizer.calls.length);
    expect(textOf(items[0])).toContain('[Conversation summary]');
  });

  it('is a Session of theirs at runtime, with the runCompaction() their runner looks for', () => {
    // Type-checks: their MemorySession is an AgentsSession, and the wrapper is a Session of theirs.
    const wrapped = compactingSession({ session: new MemorySession() });
    const session: Session = wrapped;
    const aware: OpenAIResponsesCompactionAwareSession = wrapped;
    expect(isOpenAIResponsesCompactionAwareSession(session)).toBe(true);
    expect(aware.runCompaction).toBe(wrapped.runCompaction);
    for (const method of ['getSessionId', 'getItems', 'addItems', 'popItem', 'clearSession'] as const) {
      expect(typeof session[method]).toBe('function');
    }
  });
});
