/**
 * Runs to picture, for the run report's tests and for measuring its page: a real agent
 * session saved by FileSessionStore (compacting as it goes), and a long plain transcript.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '../agent/create-agent.js';
import { twoPhaseStrategy } from '../compaction/two-phase.js';
import type { AgentEvent } from '../contracts/agent-event.js';
import { tool } from '../executor/tool.js';
import type { Message } from '../messages/types.js';
import { FileSessionStore } from '../sessions/file-store.js';
import { mockModel } from '../testing/mock-model.js';
import { prose } from './text.js';

/** The size of the file the scripted agent reads at call `i`: mostly small, now and then large. */
export function readSize(i: number): number {
  return i % 23 === 7 ? 9_000 : 600 + ((i * 7919) % 2_400);
}

const tools = [
  tool({
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute: async ({ path }) =>
      prose(Number(/\d+/.exec(String(path))?.[0] ?? 0), readSize(Number(/\d+/.exec(String(path))?.[0] ?? 0))),
  }),
  tool({
    name: 'mcp__github__search_issues',
    description: 'Search issues',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    execute: async ({ query }) => `issues about ${String(query)}: ${prose(7, 300)}`,
  }),
];

/**
 * A real session in a FileSessionStore at `dir`: `turns` turns of `stepsPerTurn` steps each,
 * every step reading one file (and every fifth searching issues too), on a small window so
 * it compacts often (two-phase, a scripted summarizer). Resolves to the log's path and the
 * session's events, each with its turn (from 1).
 */
export async function savedSession(dir: string, turns: number, stepsPerTurn: number, contextWindow = 16_000) {
  let call = 0;
  let step = 0;
  const provider = mockModel(
    () => {
      step++;
      if (step % (stepsPerTurn + 1) === 0) return `Turn done after ${stepsPerTurn} steps.`;
      const i = call++;
      const read = { name: 'read_file', arguments: { path: `src/file${i}.ts` } };
      const search = { name: 'mcp__github__search_issues', arguments: { query: `bug ${i}` } };
      return { text: i % 3 === 0 ? `Looking at file ${i}.` : '', toolCalls: i % 5 === 0 ? [read, search] : [read] };
    },
    { modelId: 'scripted-reader' },
  );
  const summarizer = mockModel(() => 'The files read so far define modules of the project.', {
    modelId: 'scripted-summarizer',
  });
  const agent = createAgent({
    provider,
    instructions: 'Read the files one by one.',
    tools,
    compaction: { strategy: twoPhaseStrategy({ model: summarizer }), contextWindow },
    limits: { maxSteps: stepsPerTurn + 5 },
  });
  const session = agent.session({ id: 'reader', store: new FileSessionStore({ dir }) });
  const events: { turn: number; event: AgentEvent }[] = [];
  let turn = 0;
  session.on((event) => events.push({ turn, event }));
  for (turn = 1; turn <= turns; turn++) await session.send(`Read the next ${stepsPerTurn} files.`);
  return { log: join(dir, 'reader.jsonl'), events };
}

/** A plain transcript of `steps` assistant turns, each calling one tool, written to `path` as OpenAI chat messages. */
export async function longTranscript(path: string, steps: number): Promise<Message[]> {
  const messages: Message[] = [
    { role: 'system', content: 'You read files.' },
    { role: 'user', content: 'Read every file.' },
  ];
  for (let i = 0; i < steps - 1; i++) {
    const id = `call_${i}`;
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'read_file', arguments: { path: `f${i}` } }],
    });
    messages.push({ role: 'tool', toolCallId: id, toolName: 'read_file', content: prose(i, 40 + (i % 13) * 10) });
  }
  messages.push({ role: 'assistant', content: 'All read.' });
  const chat = messages.map((m) =>
    m.role === 'assistant'
      ? {
          role: 'assistant',
          content: m.content,
          ...(m.toolCalls === undefined
            ? {}
            : {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                })),
              }),
        }
      : m.role === 'tool'
        ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
        : m,
  );
  await writeFile(path, JSON.stringify(chat));
  return messages;
}

/**
 * A project for the main job's scripted run: twelve 12 KB sources and one 190 KB data file
 * (more tokens than the scripted window), so the run compacts and shows both its recoveries.
 */
export async function demoProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lousho-job-'));
  await mkdir(join(root, 'src'));
  for (let i = 0; i < 12; i++) {
    await writeFile(join(root, 'src', `m${i}.ts`), `export const value${i} = ${i}; // module ${i}\n`.repeat(400));
  }
  await writeFile(
    join(root, 'data.json'),
    JSON.stringify({ rows: Array.from({ length: 10_000 }, (_, i) => `row ${i} lorem`) }),
  );
  return root;
}
