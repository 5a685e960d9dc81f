/**
 * What opening a long session costs: a 1,000-step turn (one tool call and a 600-character result
 * a step) on every store this machine has, compacted by the agent under an 8,000-token window or not
 * compacted; at every step of the first and the last tenth a fresh session object loads it, three
 * ways: in a process that knew the log from the load before (it reads only what came since), as a
 * process that never read it (from the newest snapshot), and, for comparison, from the whole log
 * (what it did before the stores had readLatest()). Reported: the median time of a load over each
 * tenth, and the bytes it read at steps 100 and 1,000; and, on sessions of 100 and 1,000 steps left
 * idle, the median time of a new turn (the lease, the read, the run's first model call answered at
 * once, the saves) in a process that knew the session and in one that did not.
 *
 * Run alone: npm run bench -- session-load
 */
import { createAgent } from '../src/agent/create-agent.js';
import type { SessionStore } from '../src/sessions/store.js';
import { countingReads, runLongSession, type StoreRead, wholeLogOnly } from '../src/test-support/long-session.js';
import { freshSpec, openStore, type StoreKind, serverProblems } from '../src/test-support/store-backends.js';
import { mockModel } from '../src/testing/mock-model.js';
import { formatInt, formatMs, formatRatio, median } from './stats.js';

const STEPS = 1_000;
const TENTH = STEPS / 10;

type Way = 'known' | 'snapshot' | 'whole';
const WAYS: Way[] = ['known', 'snapshot', 'whole'];

/** One way of reading, over one run. */
export interface LoadCost {
  /** Median ms of a load over the first and the last tenth of the steps. */
  firstTenthMs: number;
  lastTenthMs: number;
  /** Bytes one load read at step 100 and at step 1,000. */
  bytesAt100: number;
  bytesAt1000: number;
}

export interface SessionLoadRow {
  store: string;
  compacted: boolean;
  ways: Record<Way, LoadCost>;
  /** Median ms of a turn on an idle session of 100 and of 1,000 steps, in a process that knew it and in one that did not. */
  turns?: { known: [number, number]; fresh: [number, number] };
}

export interface SessionLoadReport {
  rows: SessionLoadRow[];
  skipped: string[];
}

async function oneRun(store: SessionStore, compacted: boolean): Promise<Record<Way, LoadCost>> {
  const reader = createAgent({ provider: mockModel([]) });
  const samples = {
    known: new Map<number, number>(),
    snapshot: new Map<number, number>(),
    whole: new Map<number, number>(),
  };
  const bytes = {
    known: new Map<number, number>(),
    snapshot: new Map<number, number>(),
    whole: new Map<number, number>(),
  };
  const reads: StoreRead[] = [];
  const known = countingReads(store, reads); // one store object for every load: this process knows the log
  const readerOf = (way: Way) =>
    way === 'known' ? known : countingReads(way === 'whole' ? wholeLogOnly(store) : store, reads);
  await runLongSession(store, {
    id: 'load',
    steps: STEPS,
    compacted,
    atStep: async (step) => {
      if (step > TENTH && step <= STEPS - TENTH) return;
      for (const way of WAYS) {
        reads.length = 0;
        const session = reader.session({ id: 'load', store: readerOf(way) });
        const started = performance.now();
        await session.load();
        samples[way].set(step, performance.now() - started);
        bytes[way].set(
          step,
          reads.reduce((n, r) => n + r.bytes, 0),
        );
      }
    },
  });
  const cost = (way: Way): LoadCost => {
    const at = [...samples[way]];
    return {
      firstTenthMs: median(at.filter(([step]) => step <= TENTH).map(([, ms]) => ms)),
      lastTenthMs: median(at.filter(([step]) => step > STEPS - TENTH).map(([, ms]) => ms)),
      bytesAt100: bytes[way].get(TENTH) ?? 0,
      bytesAt1000: bytes[way].get(STEPS) ?? 0,
    };
  };
  return { known: cost('known'), snapshot: cost('snapshot'), whole: cost('whole') };
}

/** Median ms of 5 turns on the idle session `id`, each through `storeFor()` (a fresh store object: a process that never read it). */
async function turnMs(storeFor: () => SessionStore, id: string): Promise<number> {
  const agent = createAgent({ provider: mockModel(() => 'ok'), compaction: false });
  const times: number[] = [];
  for (let n = 0; n < 5; n++) {
    const session = agent.session({ id, store: storeFor() });
    const started = performance.now();
    await session.send('one more');
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A turn on idle sessions of 100 and 1,000 steps (uncompacted), in a process that knew each and in one that did not. */
async function turnCosts(store: SessionStore): Promise<{ known: [number, number]; fresh: [number, number] }> {
  const ids = ['turn-100', 'turn-1000'];
  for (const [i, id] of ids.entries()) {
    await runLongSession(store, { id, steps: i === 0 ? TENTH : STEPS, compacted: false, atStep: async () => {} });
  }
  const fresh = () => countingReads(store, []);
  return {
    known: [await turnMs(() => store, ids[0] as string), await turnMs(() => store, ids[1] as string)],
    fresh: [await turnMs(fresh, ids[0] as string), await turnMs(fresh, ids[1] as string)],
  };
}

export async function runSessionLoad(log: (line: string) => void = () => {}): Promise<SessionLoadReport> {
  const problems = await serverProblems();
  const rows: SessionLoadRow[] = [];
  const skipped: string[] = [];
  for (const kind of ['memory', 'file', 'sqlite', 'redis', 'postgres'] as StoreKind[]) {
    const problem = kind === 'redis' ? problems.redis : kind === 'postgres' ? problems.postgres : undefined;
    if (problem !== undefined) {
      skipped.push(`${kind}: ${problem}`);
      continue;
    }
    for (const compacted of [true, false]) {
      log(`[session-load] ${kind}, ${compacted ? 'compacted' : 'not compacted'}`);
      const open = await openStore(await freshSpec(kind));
      try {
        const store = open.store.description.replace(/\(.*\)$/, '');
        const ways = await oneRun(open.store, compacted);
        rows.push({ store, compacted, ways, ...(compacted ? {} : { turns: await turnCosts(open.store) }) });
      } finally {
        await open.close();
      }
    }
  }
  return { rows, skipped };
}

const kb = (bytes: number) => `${formatInt(bytes / 1024)} KiB`;

export function renderSessionLoadMarkdown(report: SessionLoadReport): string {
  const lines = [
    '## Opening a long session',
    '',
    `A ${formatInt(STEPS)}-step turn (one tool call and a 600-character result a step), compacted under an 8,000-token window`,
    '(prune, then a summary) or not compacted. At every step of the first and the last tenth a fresh session object',
    'loads it three ways: in a process that knew the log from the load before (`load()` reads only what was appended',
    'since), as a process that never read it (from the newest snapshot: a compaction is saved as a snapshot of the whole',
    'state), and, for comparison, from the whole log. Times are medians over each tenth; bytes are what one load read.',
    '',
    '| store | compacted | known: first / last tenth | × | bytes at step 100 / 1,000 | never read: first / last tenth | × | bytes at step 100 / 1,000 | whole log: first / last tenth | × |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const times = (c: LoadCost) =>
    `${formatMs(c.firstTenthMs)} / ${formatMs(c.lastTenthMs)} | ${formatRatio(c.lastTenthMs / c.firstTenthMs)}`;
  const read = (c: LoadCost) => `${kb(c.bytesAt100)} / ${kb(c.bytesAt1000)}`;
  for (const row of report.rows) {
    const { known, snapshot, whole } = row.ways;
    lines.push(
      `| ${row.store} | ${row.compacted ? 'yes' : 'no'} | ${times(known)} | ${read(known)} | ${times(snapshot)} | ${read(snapshot)} | ${times(whole)} |`,
    );
  }
  lines.push(
    '',
    'A new turn on an idle uncompacted session of 100 and of 1,000 steps (the lease, the read, a model that answers at',
    'once, the saves), median of 5:',
    '',
    '| store | process that knew it: step 100 / 1,000 | × | process that never read it: step 100 / 1,000 | × |',
    '|---|---:|---:|---:|---:|',
  );
  for (const row of report.rows) {
    const t = row.turns;
    if (t === undefined) continue;
    const cell = ([a, b]: [number, number]) => `${formatMs(a)} / ${formatMs(b)} | ${formatRatio(b / a)}`;
    lines.push(`| ${row.store} | ${cell(t.known)} | ${cell(t.fresh)} |`);
  }
  for (const why of report.skipped) lines.push('', `Skipped ${why}.`);
  lines.push(
    '',
    'A process that knew the log reads what was appended since it last read or wrote it, so its load costs the same at',
    'step 1,000 as at step 100, compacted or not. A process that never read it reads the session as it is now: with',
    'compaction the state stays under the window and costs the same at step 1,000; without, the transcript itself is',
    "ten times longer, and so is that first read. A turn still hands the whole transcript to its run (the model's",
    'request is the transcript).',
  );
  return lines.join('\n');
}
