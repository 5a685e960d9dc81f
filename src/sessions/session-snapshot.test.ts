import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import { instantSummarizer } from '../test-support/long-run.js';
import { mockModel } from '../testing/mock-model.js';
import { FileSessionStore } from './file-store.js';
import { decodeEntry } from './records.js';
import { MemorySessionStore, type SessionLogTail, type SessionStore } from './store.js';

const STEPS = 1_000;

/** What one load read from the store: entries and bytes. */
interface Read {
  entries: number;
  bytes: number;
}

/** The store, counting what each read and readLatest returns into `reads`. */
function counting(store: SessionStore, reads: Read[]): SessionStore {
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
      return value.bind(target);
    },
  });
}

const TENTH = STEPS / 10;
const inTenth = (step: number) => step <= TENTH || step > STEPS - TENTH;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * A 1,000-step turn (one tool call a step, a 600-character result) whose transcript the
 * agent's compaction keeps under an 8,000-token window; at every step of the first and the
 * last tenth a fresh session object loads the session, and what that load read is recorded.
 */
async function longSession(store: SessionStore) {
  const loads = new Map<number, Read>();
  const reads: Read[] = [];
  const watched = counting(store, reads);
  const reader = createAgent({ provider: mockModel([]) });
  const model = mockModel((_request, index) =>
    index < STEPS ? { toolCalls: [{ id: `c${index}`, name: 'read', arguments: { n: index } }] } : 'done',
  );
  let step = 0;
  const read = tool({
    name: 'read',
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    execute: async () => {
      step++;
      if (inTenth(step)) {
        reads.length = 0;
        await reader.session({ id: 'long', store: watched }).load();
        loads.set(
          step,
          reads.reduce((sum, r) => ({ entries: sum.entries + r.entries, bytes: sum.bytes + r.bytes })),
        );
      }
      return `// file ${step}\n${'const value = compute(input);\n'.repeat(20)}`;
    },
  });
  const agent = createAgent({
    provider: model,
    tools: [read],
    limits: { maxSteps: STEPS + 5 },
    compaction: { summarizer: instantSummarizer(), contextWindow: 8_000 },
  });
  const session = agent.session({ id: 'long', store });
  await session.send('Read every file.');
  const whole = await store.read('long');
  return { loads, session, whole };
}

describe.each([
  ['memory', async () => new MemorySessionStore()],
  ['file', async () => new FileSessionStore({ dir: await mkdtemp(join(tmpdir(), 'lousho-snapshot-')) })],
] as const)('a long session on the %s store', (_kind, makeStore) => {
  it('opens from its newest snapshot: what a load reads at step 1,000, and over the last tenth, is within twice step 100 and the first tenth', async () => {
    const store = await makeStore();
    const { loads, session, whole } = await longSession(store);
    const at100 = loads.get(TENTH) as Read;
    const at1000 = loads.get(STEPS) as Read;
    const first = [...loads].filter(([step]) => step <= TENTH).map(([, read]) => read);
    const last = [...loads].filter(([step]) => step > STEPS - TENTH).map(([, read]) => read);
    const logBytes = whole.entries.reduce((n, e) => n + Buffer.byteLength(e), 0);
    expect([first.length, last.length]).toEqual([TENTH, TENTH]);
    expect(at1000.bytes, `bytes read at step 1,000 (${at1000.bytes}) and at step 100 (${at100.bytes})`).toBeLessThan(
      2 * at100.bytes,
    );
    for (const measure of ['bytes', 'entries'] as const) {
      const [before, after] = [mean(first.map((r) => r[measure])), mean(last.map((r) => r[measure]))];
      expect(after, `${measure} a load reads, mean over the last tenth and the first`).toBeLessThan(2 * before);
    }
    for (const read of last) expect(read.bytes * 10, 'a load reads a small part of the log').toBeLessThan(logBytes);
    // What it read is the session: a load of the whole log gives the same state.
    const reopened = createAgent({ provider: mockModel([]) }).session({ id: 'long', store });
    await reopened.load();
    expect(reopened.messages).toEqual(session.messages);
    expect(whole.entries.flatMap(decodeEntry).filter((r) => r.type === 'snapshot').length).toBeGreaterThan(10);
    const checkpoints = await reopened.checkpoints();
    expect(checkpoints.map((c) => c.id)).toEqual(checkpoints.map((_c, i) => `cp-${i + 1}`));
    expect(checkpoints.every((c) => c.tokens > 0)).toBe(true);
  }, 300_000);
});
