/**
 * What durable sessions cost per step: a scripted 1,000-step run (one tool call and a
 * 600-character result per step) through agent.session() on every store this machine has
 * (memory, file, SQLite; Redis and PostgreSQL when REDIS_URL / LOUSHO_PG_URL answer), which
 * saves after every step by appending what the step added; against the same run saving the
 * whole transcript after every step (the store's entry deleted and written again, as a
 * store that keeps one value per session does), and against the run with no store at all.
 *
 * Run: npx tsx bench/checkpoints.ts
 */
import { pathToFileURL } from 'node:url';
import { createAgent } from '../src/agent/create-agent.js';
import { AgentExecutor } from '../src/executor/agent-executor.js';
import { ToolRegistry } from '../src/executor/tool-registry.js';
import { encodeEntry } from '../src/sessions/records.js';
import type { SessionStore } from '../src/sessions/store.js';
import {
  freshSpec,
  type OpenStore,
  openStore,
  type StoreKind,
  serverProblems,
} from '../src/test-support/store-backends.js';
import { mockModel } from '../src/testing/mock-model.js';
import { formatInt, formatMs, formatRatio } from './stats.js';

/** Bytes and time of one way of saving the run. */
export interface SavingCost {
  /** Bytes handed to the store over the run. */
  bytes: number;
  /** Mean bytes per step over the first and the last tenth of the steps. */
  firstTenthBytesPerStep: number;
  lastTenthBytesPerStep: number;
  /** Wall time of the run divided by its steps. */
  msPerStep: number;
}

export interface CheckpointRow {
  store: string;
  appends: SavingCost;
  rewrites: SavingCost;
}

export interface CheckpointReport {
  steps: number;
  resultChars: number;
  /** Time per step of the run with no store (the model stand-in, the executor, the tools). */
  bareMsPerStep: number;
  rows: CheckpointRow[];
  skipped: string[];
}

const RESULT_CHARS = 600;

function parts(steps: number) {
  let step = 0;
  const tools = [
    {
      name: 'read',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      execute: ({ path }: Record<string, unknown>) => {
        step++;
        return `// ${String(path)} (step ${step})\n${'const value = compute(input);\n'.repeat(RESULT_CHARS / 30)}`;
      },
    },
  ];
  const model = mockModel((_request, index) =>
    index < steps
      ? { toolCalls: [{ id: `c${index}`, name: 'read', arguments: { path: `src/file${index}.ts` } }] }
      : 'done',
  );
  return { tools, model, step: () => step };
}

/** A store that counts the bytes of each append against the step the run is at. */
function counting(store: SessionStore, step: () => number, perStep: number[]): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'append') return typeof value === 'function' ? value.bind(target) : value;
      return (id: string, entry: string, version: number) => {
        const at = Math.min(step(), perStep.length - 1);
        perStep[at] = (perStep[at] ?? 0) + Buffer.byteLength(entry);
        return target.append(id, entry, version);
      };
    },
  });
}

function cost(perStep: number[], ms: number, steps: number): SavingCost {
  const tenth = Math.max(1, Math.floor(steps / 10));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    bytes: perStep.reduce((a, b) => a + b, 0),
    firstTenthBytesPerStep: mean(perStep.slice(1, tenth + 1)),
    lastTenthBytesPerStep: mean(perStep.slice(steps - tenth + 1, steps + 1)),
    msPerStep: ms / steps,
  };
}

async function withAppends(store: SessionStore, steps: number): Promise<SavingCost> {
  const { tools, model, step } = parts(steps);
  const perStep = new Array<number>(steps + 2).fill(0);
  const agent = createAgent({ provider: model, tools, limits: { maxSteps: steps + 5 } });
  const session = agent.session({ id: 'bench', store: counting(store, step, perStep) });
  const started = performance.now();
  await session.send('Read every file.');
  return cost(perStep, performance.now() - started, steps);
}

async function withRewrites(store: SessionStore, steps: number): Promise<SavingCost> {
  const { tools, model, step } = parts(steps);
  const perStep = new Array<number>(steps + 2).fill(0);
  const counted = counting(store, step, perStep);
  const started = performance.now();
  await AgentExecutor.execute({
    agent: { limits: { maxSteps: steps + 5 } },
    input: 'Read every file.',
    provider: model,
    toolRegistry: new ToolRegistry(tools),
    onCheckpoint: async (point) => {
      if (point.kind !== 'tools.done') return;
      await counted.delete('bench-rewrite');
      await counted.append('bench-rewrite', encodeEntry([{ type: 'rewrite', messages: [...point.messages] }]), 0);
    },
  });
  return cost(perStep, performance.now() - started, steps);
}

async function bare(steps: number): Promise<number> {
  const { tools, model } = parts(steps);
  const started = performance.now();
  await AgentExecutor.execute({
    agent: { limits: { maxSteps: steps + 5 } },
    input: 'Read every file.',
    provider: model,
    toolRegistry: new ToolRegistry(tools),
  });
  return (performance.now() - started) / steps;
}

export async function runCheckpoints(
  options: { steps?: number; log?: (line: string) => void } = {},
): Promise<CheckpointReport> {
  const steps = options.steps ?? 1_000;
  const log = options.log ?? (() => {});
  const problems = await serverProblems();
  const kinds: StoreKind[] = ['memory', 'file', 'sqlite', 'redis', 'postgres'];
  const skipped: string[] = [];
  await bare(50); // warm-up: the tokenizer and the code paths
  const bareMsPerStep = await bare(steps);
  const rows: CheckpointRow[] = [];
  for (const kind of kinds) {
    const problem = kind === 'redis' ? problems.redis : kind === 'postgres' ? problems.postgres : undefined;
    if (problem !== undefined) {
      skipped.push(`${kind}: ${problem}`);
      continue;
    }
    const open: OpenStore = await openStore(await freshSpec(kind));
    try {
      log(`[checkpoints] ${kind}: appends`);
      const appends = await withAppends(open.store, steps);
      log(`[checkpoints] ${kind}: rewrites`);
      const rewrites = await withRewrites(open.store, steps);
      rows.push({ store: open.store.description.replace(/\(.*\)$/, ''), appends, rewrites });
    } finally {
      await open.close();
    }
  }
  return { steps, resultChars: RESULT_CHARS, bareMsPerStep, rows, skipped };
}

const kb = (bytes: number) => `${formatInt(bytes / 1024)} KiB`;

export function renderCheckpointsMarkdown(r: CheckpointReport): string {
  const lines = [
    '## Session checkpoints: bytes and time per step',
    '',
    `A scripted ${formatInt(r.steps)}-step run (one tool call and a ${r.resultChars}-character result per step) in a session, ` +
      'which saves after every step by appending what the step added (the reply, the tools about to run, each result, ' +
      'the step end), against the same run rewriting the whole transcript in the store after every step. ' +
      `With no store the run takes ${formatMs(r.bareMsPerStep)} per step.`,
    '',
    '| store | appended, total | per step, first / last tenth | time per step | rewritten, total | per step, first / last tenth | time per step | bytes rewritten / appended |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of r.rows) {
    const a = row.appends;
    const w = row.rewrites;
    lines.push(
      `| ${row.store} | ${kb(a.bytes)} | ${formatInt(a.firstTenthBytesPerStep)} / ${formatInt(a.lastTenthBytesPerStep)} B | ${formatMs(a.msPerStep)} | ` +
        `${kb(w.bytes)} | ${formatInt(w.firstTenthBytesPerStep)} / ${formatInt(w.lastTenthBytesPerStep)} B | ${formatMs(w.msPerStep)} | ${formatRatio(w.bytes / a.bytes)} |`,
    );
  }
  if (r.skipped.length > 0) lines.push('', ...r.skipped.map((s) => `Skipped ${s}.`));
  lines.push(
    '',
    'Appending keeps the bytes per step flat (they follow what the step added); rewriting grows them with the ' +
      'transcript, so the total grows with the square of the run. Times include the scripted model and the executor.',
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCheckpoints({ log: (line) => console.error(line) })
    .then((report) => console.log(renderCheckpointsMarkdown(report)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
