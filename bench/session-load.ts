/**
 * What opening a long session costs: a 1,000-step turn (one tool call and a 600-character
 * result a step) on every store this machine has, compacted by the agent under an 8,000-token
 * window or not compacted; at every step of the first and the last tenth a fresh session object
 * loads it, reading from the newest snapshot (what load() does) and, for comparison, the whole
 * log (what it did before the stores had readLatest()). Reported: the median time of a load
 * over each tenth, and the bytes it read at steps 100 and 1,000.
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
  snapshot: LoadCost;
  whole: LoadCost;
}

export interface SessionLoadReport {
  rows: SessionLoadRow[];
  skipped: string[];
}

async function oneRun(store: SessionStore, compacted: boolean): Promise<{ snapshot: LoadCost; whole: LoadCost }> {
  const reader = createAgent({ provider: mockModel([]) });
  const readers = { snapshot: store, whole: wholeLogOnly(store) };
  const samples = { snapshot: new Map<number, number>(), whole: new Map<number, number>() };
  const bytes = { snapshot: new Map<number, number>(), whole: new Map<number, number>() };
  await runLongSession(store, {
    id: 'load',
    steps: STEPS,
    compacted,
    atStep: async (step) => {
      if (step > TENTH && step <= STEPS - TENTH) return;
      for (const way of ['snapshot', 'whole'] as const) {
        const reads: StoreRead[] = [];
        const session = reader.session({ id: 'load', store: countingReads(readers[way], reads) });
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
  const cost = (way: 'snapshot' | 'whole'): LoadCost => {
    const at = [...samples[way]];
    return {
      firstTenthMs: median(at.filter(([step]) => step <= TENTH).map(([, ms]) => ms)),
      lastTenthMs: median(at.filter(([step]) => step > STEPS - TENTH).map(([, ms]) => ms)),
      bytesAt100: bytes[way].get(TENTH) ?? 0,
      bytesAt1000: bytes[way].get(STEPS) ?? 0,
    };
  };
  return { snapshot: cost('snapshot'), whole: cost('whole') };
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
        rows.push({ store, compacted, ...(await oneRun(open.store, compacted)) });
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
    'loads it: from the newest snapshot (what `load()` does; a compaction is saved as a snapshot of the whole state),',
    'and, for comparison, from the whole log. Times are medians over each tenth; bytes are what one load read.',
    '',
    '| store | compacted | snapshot: first / last tenth | × | bytes at step 100 / 1,000 | whole log: first / last tenth | × | bytes at step 100 / 1,000 |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of report.rows) {
    const cell = (c: LoadCost) =>
      `${formatMs(c.firstTenthMs)} / ${formatMs(c.lastTenthMs)} | ${formatRatio(c.lastTenthMs / c.firstTenthMs)} | ` +
      `${kb(c.bytesAt100)} / ${kb(c.bytesAt1000)}`;
    lines.push(`| ${row.store} | ${row.compacted ? 'yes' : 'no'} | ${cell(row.snapshot)} | ${cell(row.whole)} |`);
  }
  for (const why of report.skipped) lines.push('', `Skipped ${why}.`);
  lines.push(
    '',
    'With compaction the state stays under the window while the log grows, so a load from the snapshot costs the same',
    'at step 1,000 as at step 100. Without compaction the transcript itself grows with every step, and so does any load.',
  );
  return lines.join('\n');
}
