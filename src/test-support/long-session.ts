/**
 * A long session for the snapshot-read test and bench: one turn of `steps` steps (one tool
 * call a step, a 600-character result), compacted by the agent under an 8,000-token window
 * (prune, then a summary by a stand-in model) or not compacted at all; `atStep` runs inside
 * each step's tool, where a test can open the session as another process would.
 */
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import type { Session } from '../sessions/session.js';
import type { SessionLogTail, SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { instantSummarizer } from './long-run.js';

/** What one read of the store returned: entries and bytes. */
export interface StoreRead {
  entries: number;
  bytes: number;
}

/** The store, adding what each read(), readLatest() and readAfter() returns to `reads`. */
export function countingReads(store: SessionStore, reads: StoreRead[]): SessionStore {
  const count = <T extends { entries: string[] }>(log: T): T => {
    reads.push({ entries: log.entries.length, bytes: log.entries.reduce((n, e) => n + Buffer.byteLength(e), 0) });
    return log;
  };
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'read') return (id: string) => target.read(id).then(count);
      if (key === 'readLatest') {
        const latest = value as (id: string) => Promise<SessionLogTail>;
        return (id: string) => latest.call(target, id).then(count);
      }
      if (key === 'readAfter') {
        const after = value as NonNullable<SessionStore['readAfter']>;
        return (id: string, version: number, last: string) =>
          after.call(target, id, version, last).then((log) => (log === undefined ? log : count(log)));
      }
      return value.bind(target);
    },
  });
}

/** The store without readLatest() and readAfter(): a session on it reads the whole log, as every store did before. */
export function wholeLogOnly(store: SessionStore): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readLatest' || key === 'readAfter') return undefined;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs the long session `id` on `store`; resolves to the writer's session once its turn is done. */
export async function runLongSession(
  store: SessionStore,
  options: { id: string; steps: number; compacted: boolean; atStep: (step: number) => Promise<void> },
): Promise<Session> {
  const { steps } = options;
  const model = mockModel((_request, index) =>
    index < steps ? { toolCalls: [{ id: `c${index}`, name: 'read', arguments: { n: index } }] } : 'done',
  );
  let step = 0;
  const read = tool({
    name: 'read',
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    execute: async () => {
      step++;
      await options.atStep(step);
      return `// file ${step}\n${'const value = compute(input);\n'.repeat(20)}`;
    },
  });
  const agent = createAgent({
    provider: model,
    tools: [read],
    limits: { maxSteps: steps + 5 },
    compaction: options.compacted ? { summarizer: instantSummarizer(), contextWindow: 8_000 } : false,
  });
  const session = agent.session({ id: options.id, store });
  await session.send('Read every file.');
  return session;
}
