/**
 * The multi-process load run of the queue integrations, for the test (small) and the bench
 * (full scale): worker processes (src/test-support/queue-worker.ts) serve `sessions` sessions
 * of a `steps`-step turn with an approval each from BullMQ or pg-boss, the parent approves each
 * call as it is asked and SIGKILLs a worker (starting a new one) on the schedule given, then
 * counts from the store and the tools' ledger what went wrong.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createAgent } from '../agent/create-agent.js';
import type { SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { Child } from './child-process.js';
import type { QueueWorkerConfig } from './queue-worker.js';
import { freshSpec, openStore, PG_URL, REDIS_URL } from './store-backends.js';

/** The shape of one run. */
export interface QueueLoadOptions {
  engine: 'bullmq' | 'pg-boss';
  workers: number;
  sessions: number;
  steps: number;
  /** When to kill a worker: after every `everySaves` saves, or every `minMs`–`maxMs` (random); at most `max` kills. */
  kills: { everySaves?: number; minMs?: number; maxMs?: number; max: number };
  /** Gives up waiting after this long, in ms (the report then counts the unfinished turns as lost). */
  deadlineMs: number;
  /** Told how far the run is, about every 30 s (finished sessions, kills). */
  progress?: (line: string) => void;
  /** BullMQ's lock / pg-boss's expiry of a job, in ms (the engine's default, 30 s / 60 s, when absent). */
  jobTimeoutMs?: number;
  /** How long a model reply and a tool run take, in ms (random between the two; 0 and 1–5 when absent). */
  modelMs?: [number, number];
  toolMs?: [number, number];
  /** Jobs each worker process runs at a time (4). */
  concurrency?: number;
  /** Each turn is enqueued twice with its key, as a webhook delivered twice would. */
  duplicates?: boolean;
}

/** What a run found. Every count but turns must be 0. */
export interface QueueLoadReport {
  turns: number;
  lostTurns: number;
  doubledTurns: number;
  doubledToolRuns: number;
  approvalsAppliedTwice: number;
  toolRuns: number;
  kills: number;
  seconds: number;
  bytesPerStep: number;
  /**
   * Time from a kill to the next save of a session the killed worker was in the middle of (not one
   * resting for its approval, which waits for the approver and the queue, not for a takeover), in ms:
   * the takeover, and what the turn did until it saved (a model reply, say).
   */
  takeoverMs: number[];
  /** Time from a kill to another worker taking over the lease of such a session (from its dead holder), in ms. */
  takenOverMs: number[];
}

/** Runs one load run and reports it; the queue, the store and the pg-boss schema are its own and dropped after. */
export async function runQueueLoad(options: QueueLoadOptions): Promise<QueueLoadReport> {
  const tag = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const storeSpec = await freshSpec(options.engine === 'bullmq' ? 'redis' : 'postgres');
  const { store, close } = await openStore(storeSpec);
  const ledger = join(await mkdtemp(join(tmpdir(), 'lousho-queue-load-')), 'ledger');
  const config: QueueWorkerConfig = {
    engine: options.engine,
    queueName: `lousho-load-${tag}`,
    redisUrl: REDIS_URL,
    prefix: `lousho-load-${tag}`,
    pgUrl: PG_URL,
    schema: `lousho_boss_${tag}`,
    store: storeSpec,
    ledger,
    steps: options.steps,
    leaseMs: 2_000,
    ...(options.jobTimeoutMs === undefined ? {} : { jobTimeoutMs: options.jobTimeoutMs }),
    concurrency: options.concurrency ?? 4,
    ...(options.modelMs === undefined ? {} : { modelMs: options.modelMs }),
    ...(options.toolMs === undefined ? {} : { toolMs: options.toolMs }),
  };
  const ids = Array.from({ length: options.sessions }, (_, i) => `load-${tag}-${i}`);
  const open = (id: string) => createAgent({ provider: mockModel([]) }).session({ id, store, leaseMs: 2_000 });
  const queue = await parentQueue(config, { session: open });
  let started = Date.now();
  let ready = 0;
  const finished = new Set<string>();
  const lastWriter = new Map<string, Child>();
  const takeovers = new Map<string, number>();
  /** Sessions whose last save asked for an approval: at rest, nobody's to take over. */
  const resting = new Set<string>();
  const takeoverMs: number[] = [];
  const takenOverMs: number[] = [];
  const untaken = new Map<string, number>();
  const workers: Child[] = [];
  let saves = 0;
  let kills = 0;
  let wake = () => {};
  const watch = (child: Child) => {
    child.process.stdout?.on('data', () => {
      for (const line of child.lines.splice(0)) {
        const [what, sid, call] = line.split(' ') as [string, string, string | undefined];
        if (what === 'saved') {
          saves++;
          lastWriter.set(sid, child);
          resting.delete(sid);
          const since = takeovers.get(sid);
          if (since !== undefined) {
            takeoverMs.push(Date.now() - since);
            takeovers.delete(sid);
          }
        } else if (what === 'taken') {
          const since = untaken.get(sid);
          if (since !== undefined) takenOverMs.push(Date.now() - since);
          untaken.delete(sid);
        } else if (what === 'waiting' && call !== undefined) {
          resting.add(sid);
          void approver(queue, sid, call);
        } else if (what === 'idle') finished.add(sid);
        else if (what === 'ready') ready++;
      }
      wake();
    });
  };
  const spawn = async () => {
    const child = await Child.start('queue-worker.ts', [JSON.stringify(config)]);
    watch(child);
    workers.push(child);
  };
  const kill = async () => {
    const victim = workers.splice(Math.floor(Math.random() * workers.length), 1)[0];
    if (victim === undefined) return;
    await victim.kill();
    kills++;
    const now = Date.now();
    for (const [sid, writer] of lastWriter) {
      if (writer === victim && !finished.has(sid) && !resting.has(sid)) {
        takeovers.set(sid, now);
        untaken.set(sid, now);
      }
    }
    await spawn();
  };
  try {
    await Promise.all(Array.from({ length: options.workers }, spawn));
    while (ready < options.workers) await new Promise<void>((resolve) => (wake = resolve));
    started = Date.now(); // throughput counts from the first enqueue, once every worker is up
    for (const id of ids) {
      await queue.enqueueTurn(id, `work ${id}`, { idempotencyKey: `turn-${id}` });
      if (options.duplicates === true) await queue.enqueueTurn(id, `work ${id}`, { idempotencyKey: `turn-${id}` });
    }
    await driveUntilDone(
      options,
      ids,
      finished,
      () => saves,
      kill,
      (w) => {
        wake = w;
      },
    );
    const seconds = (Date.now() - started) / 1000;
    return { ...(await tally(store, ids, ledger, options.steps)), kills, seconds, takeoverMs, takenOverMs };
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
    await (queue as { close(): Promise<void> }).close();
    await dropRun(config, store, ids);
    await close();
  }
}

async function parentQueue(
  config: QueueWorkerConfig,
  options: { session: (id: string) => import('../sessions/session.js').Session },
) {
  if (config.engine === 'bullmq') {
    const { bullmqSessionQueue } = await import('../integrations/bullmq-worker.js');
    const connection = { url: config.redisUrl as string, maxRetriesPerRequest: null };
    return bullmqSessionQueue({ ...options, queueName: config.queueName, connection, prefix: config.prefix as string });
  }
  const { pgBossSessionQueue } = await import('../integrations/pg-boss-worker.js');
  return pgBossSessionQueue({
    ...options,
    queueName: config.queueName,
    connection: config.pgUrl as string,
    schema: config.schema as string,
    // The queue is made by whichever process comes first: with the workers' expiry.
    ...(config.jobTimeoutMs === undefined
      ? {}
      : { expireInSeconds: Math.max(1, Math.round(config.jobTimeoutMs / 1000)) }),
    maxConnections: 3,
  });
}

/**
 * Approves as a webhook would: again a while later when the session is busy or moved on under it
 * (a redelivered job is driving it), or the store failed for a moment (too many connections).
 */
/** Approvals under way, and the errors they met (for the progress line). */
const approvals = { inFlight: 0, errors: new Map<string, number>() };

async function approver(queue: { approve(sid: string, call: string): Promise<void> }, sid: string, call: string) {
  approvals.inFlight++;
  try {
    await approveUntilDone(queue, sid, call);
  } finally {
    approvals.inFlight--;
  }
}

async function approveUntilDone(
  queue: { approve(sid: string, call: string): Promise<void> },
  sid: string,
  call: string,
) {
  const again = new Set(['LOUSHO_SESSION_BUSY', 'LOUSHO_SESSION_CONFLICT', 'LOUSHO_STORE_FAILED']);
  for (let attempt = 0; attempt < 3_000; attempt++) {
    try {
      return await queue.approve(sid, call);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'untyped';
      approvals.errors.set(code, (approvals.errors.get(code) ?? 0) + 1);
      if (!again.has(code)) {
        console.error(`the approver of ${sid} gave up:`, error);
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  console.error(`the approver of ${sid} gave up after 3,000 attempts`);
}

/** Waits until every session finished (or the deadline), killing workers on the schedule. */
async function driveUntilDone(
  options: QueueLoadOptions,
  ids: string[],
  finished: Set<string>,
  saves: () => number,
  kill: () => Promise<void>,
  onWake: (wake: () => void) => void,
): Promise<void> {
  const deadline = Date.now() + options.deadlineMs;
  const { kills } = options;
  let killed = 0;
  let told = Date.now();
  let nextKillAt = saves() + (kills.everySaves ?? Number.POSITIVE_INFINITY);
  let nextKillTime =
    kills.minMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + pick(kills.minMs, kills.maxMs ?? kills.minMs);
  while (ids.some((id) => !finished.has(id)) && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 250);
      onWake(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (options.progress !== undefined && Date.now() - told >= 30_000) {
      told = Date.now();
      const met = [...approvals.errors].map(([code, n]) => `${n} ${code}`).join(', ') || 'none';
      options.progress(
        `${finished.size} of ${ids.length} sessions finished, ${killed} kills, ${saves()} saves; ` +
          `${approvals.inFlight} approvals under way (errors met: ${met})`,
      );
    }
    const due = saves() >= nextKillAt || Date.now() >= nextKillTime;
    if (due && killed < kills.max) {
      killed++;
      await kill();
      nextKillAt = saves() + (kills.everySaves ?? Number.POSITIVE_INFINITY);
      if (kills.minMs !== undefined) nextKillTime = Date.now() + pick(kills.minMs, kills.maxMs ?? kills.minMs);
    }
  }
}

const pick = (min: number, max: number) => min + Math.random() * (max - min);

/** Counts, from the store and the ledger, what each session's turn did. */
async function tally(store: SessionStore, ids: string[], ledger: string, steps: number) {
  const starts = new Map<string, number>();
  for (const line of (await readFile(ledger, 'utf8').catch(() => '')).split('\n')) {
    if (line.startsWith('START ')) starts.set(line.slice(6), (starts.get(line.slice(6)) ?? 0) + 1);
  }
  let lostTurns = 0;
  let doubledTurns = 0;
  let bytes = 0;
  for (const id of ids) {
    const session = createAgent({ provider: mockModel([]) }).session({ id, store });
    await session.load();
    const users = session.messages.filter((m) => m.role === 'user').length;
    const answered = session.messages.at(-1)?.content === `done ${id}`;
    if (session.status !== 'idle' || !answered) lostTurns++;
    if (users > 1) doubledTurns++;
    bytes += (await store.read(id)).entries.reduce((sum, e) => sum + Buffer.byteLength(e), 0);
  }
  let doubledToolRuns = 0;
  let approvalsAppliedTwice = 0;
  let toolRuns = 0;
  for (const [call, count] of starts) {
    toolRuns += count;
    if (call.endsWith('.write') && count > 1) doubledToolRuns++;
    if (call.endsWith('.deploy') && count > 1) approvalsAppliedTwice++;
  }
  return {
    turns: ids.length - lostTurns,
    lostTurns,
    doubledTurns,
    doubledToolRuns,
    approvalsAppliedTwice,
    toolRuns,
    bytesPerStep: Math.round(bytes / (ids.length * Math.max(1, steps))),
  };
}

/** Drops what the run left on the shared servers: its queue, its sessions, its pg-boss schema. */
async function dropRun(config: QueueWorkerConfig, store: SessionStore, ids: string[]): Promise<void> {
  for (const id of ids) await store.delete(id).catch(() => {});
  if (config.engine === 'bullmq') {
    const redis = new Redis(config.redisUrl as string, { maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    for (const prefix of [config.prefix, (config.store as { prefix?: string }).prefix]) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  } else {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${config.schema} CASCADE`);
    const path = new URL((config.store as { url: string }).url).searchParams.get('options')?.split('=')[1];
    if (path !== undefined) await client.query(`DROP SCHEMA IF EXISTS ${path} CASCADE`);
    await client.end();
  }
}
