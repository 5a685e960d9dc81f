/**
 * The cases every queue integration passes (BullMQ, pg-boss), in this process over a real
 * server, with the sessions in a store on the same server (KVSessionStore on Redis for BullMQ,
 * PostgresSessionStore for pg-boss): a turn enqueued twice with one key runs once, an approval
 * enqueues the resume, and the cleanup path finds, through the store's own list(), the sessions
 * a dead worker left or whose calls are all decided, and a drive job finishes each. The kill cases run
 * in worker processes (queue-load.ts).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { tool } from '../executor/tool.js';
import type { SessionQueueMethods, SessionQueueOptions } from '../integrations/session-jobs.js';
import type { DriveSessionResult } from '../sessions/drive-session.js';
import type { SessionStore } from '../sessions/store.js';
import { mockModel } from '../testing/mock-model.js';
import { countingAgent } from './counting-agent.js';
import { rejection } from './errors.js';
import { type OpenStore, openStore } from './open-store.js';
import { runQueueLoad } from './queue-load.js';
import { freshSpec } from './store-backends.js';

/**
 * Opens the integration's queue with these options and starts one worker; close() stops both.
 * `timeoutMs` sets the queue's own limit on a job (BullMQ's lock, pg-boss's expiry, with its
 * maintenance every second), for the case of a turn that runs longer than it.
 */
export type QueueFactory = (
  options: SessionQueueOptions,
  timeoutMs?: number,
) => Promise<SessionQueueMethods & { close(): Promise<void> }>;

/** Registers the cases for one integration, whose sessions live in a new store of `kind` (the engine's server). */
export function queueCases(open: QueueFactory, kind: 'redis' | 'postgres'): void {
  const stores: OpenStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });
  const setup = async (timeoutMs?: number) => {
    const opened = await openStore(await freshSpec(kind));
    stores.push(opened);
    const counting = countingAgent(opened.store);
    const driven: { sessionId: string; outcome: DriveSessionResult }[] = [];
    let wake = () => {};
    const queue = await open(
      {
        session: counting.open,
        store: counting.store,
        onDriven: (event) => {
          driven.push(event);
          wake();
        },
      },
      timeoutMs,
    );
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    };
    return { ...counting, queue, driven, until, sid: `q-${randomBytes(4).toString('hex')}` };
  };

  it('runs an enqueued turn once, however often it is enqueued with its key', async () => {
    const { queue, driven, until, runs, sid, open } = await setup();
    try {
      const key = await queue.enqueueTurn(sid, 'job');
      await queue.enqueueTurn(sid, 'job', { idempotencyKey: key });
      await until(() => driven.length >= 2);
      expect(driven.map((d) => d.outcome.action).sort()).toEqual(['replayed', 'sent']);
      expect(runs).toEqual(['work']);
      const session = open(sid);
      await session.load();
      expect(session.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });

  it('enqueues the resume when the last waiting call is decided, and a redelivered decision changes nothing', async () => {
    const { queue, driven, until, runs, sid } = await setup();
    try {
      await queue.enqueueTurn(sid, 'deploy');
      await until(() => driven.length >= 1);
      const waiting = driven[0]?.outcome;
      expect(waiting?.status).toBe('awaiting_approval');
      const call = waiting?.pendingApprovals[0]?.toolCallId as string;
      await queue.approve(sid, call);
      await until(() => driven.length >= 2);
      expect(driven[1]?.outcome).toMatchObject({ action: 'resumed', status: 'idle', result: { text: 'did deploy' } });
      await queue.approve(sid, call);
      expect((await rejection(queue.reject(sid, call))).code).toBe('LOUSHO_SESSION_DECISION_FINAL');
      expect(runs).toEqual(['deploy']);
    } finally {
      await queue.close();
    }
  });

  it('enqueues nothing for a repeated decision: one resume however often the call is approved', async () => {
    const { queue, driven, until, runs, sid } = await setup();
    try {
      await queue.enqueueTurn(sid, 'deploy');
      await until(() => driven.length >= 1);
      const call = driven[0]?.outcome.pendingApprovals[0]?.toolCallId as string;
      for (let n = 0; n < 20; n++) await approveWhenFree(() => queue.approve(sid, call));
      await until(() => driven.some((d) => d.sessionId === sid && d.outcome.action === 'resumed'));
      // A job enqueued after them all comes after them all (one worker, one job at a time).
      await queue.enqueueTurn(`${sid}-last`, 'work');
      await until(() => driven.some((d) => d.sessionId === `${sid}-last`));
      const ours = driven.filter((d) => d.sessionId === sid).map((d) => d.outcome.action);
      expect(ours).toEqual(['sent', 'resumed']);
      expect(runs).toEqual(['deploy', 'work']);
    } finally {
      await queue.close();
    }
  });

  it('never expires or delivers again a turn that runs longer than the queue allows a job (4 s against 1 s)', async () => {
    const opened = await openStore(await freshSpec(kind));
    stores.push(opened);
    const holders = new Set<string>();
    const slow = slowAgent(leasesTaken(opened.store, holders));
    const driven: { sessionId: string; outcome: DriveSessionResult }[] = [];
    let wake = () => {};
    const onDriven = (event: { sessionId: string; outcome: DriveSessionResult }) => {
      driven.push(event);
      wake();
    };
    const queue = await open({ session: slow.open, onDriven }, 1_000);
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    };
    try {
      await queue.enqueueTurn('long', 'long');
      await until(() => driven.length >= 1);
      // A delivery the queue made again (an expired job, a lost lock) is held ahead of a job sent now.
      await queue.enqueueTurn('quick', 'quick');
      await until(() => driven.some((d) => d.sessionId === 'quick'));
    } finally {
      await queue.close();
    }
    expect(driven.filter((d) => d.sessionId === 'long').map((d) => d.outcome)).toMatchObject([
      { action: 'sent', status: 'idle' },
    ]);
    expect(slow.replies(), 'no step ran twice').toBe(5);
    expect([...holders].length, 'one delivery each asked for the lease').toBe(2);
  }, 30_000);

  it("lists, from the store's own list(), the sessions a worker must continue, and a drive job per session finishes each", async () => {
    const { queue, driven, until, runs, sid, open } = await setup();
    try {
      const controller = new AbortController();
      const crashed = open(`${sid}-a-crashed`);
      crashed.on((e) => e.type === 'tool.done' && controller.abort());
      await rejection(crashed.send('job', { abortSignal: controller.signal }));
      await open(`${sid}-b-idle`).send('other');
      await open(`${sid}-c-waiting`).send('deploy now');
      const decided = open(`${sid}-d-decided`);
      const paused = await decided.send('deploy later');
      await decided.approve(paused.pendingApprovals?.[0]?.toolCallId as string);
      const stuck = await queue.requeueStuck();
      expect(stuck.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: `${sid}-a-crashed`, status: 'turn_pending' },
        { id: `${sid}-d-decided`, status: 'decided' },
      ]);
      await until(() => driven.length >= 2);
      const outcomes = Object.fromEntries(driven.map((d) => [d.sessionId, d.outcome]));
      expect(outcomes[`${sid}-a-crashed`]).toMatchObject({
        action: 'resumed',
        status: 'idle',
        result: { text: 'did job' },
      });
      expect(outcomes[`${sid}-d-decided`]).toMatchObject({
        action: 'resumed',
        status: 'idle',
        result: { text: 'did deploy later' },
      });
      expect(runs.sort()).toEqual(['deploy', 'work', 'work']); // one each, none again
    } finally {
      await queue.close();
    }
  });
}

/** Approves, asking again while a worker holds the session (a webhook that retries on a busy answer). */
async function approveWhenFree(approve: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      return await approve();
    } catch (error) {
      if ((error as { code?: string }).code !== 'LOUSHO_SESSION_BUSY') throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** The store, adding to `holders` every holder that asks for a lease (every delivery asks with its own). */
function leasesTaken(store: SessionStore, holders: Set<string>): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'acquire') return value.bind(target);
      return (id: string, holder: string, ttlMs: number, takeOver?: string) => {
        holders.add(holder);
        return target.acquire(id, holder, ttlMs, takeOver);
      };
    },
  });
}

/** An agent whose turn on "long" is 4 model replies of a second each (3 steps of a tool, then an answer), and on "quick" one at once. */
function slowAgent(store: SessionStore) {
  let replies = 0;
  const agent = createAgent({
    provider: mockModel((request) => {
      replies++;
      if (request.messages.at(-1)?.content === 'quick') return 'done';
      const steps = request.messages.filter((m) => m.role === 'assistant').length;
      if (steps >= 3) return { text: 'done', delayMs: 1_000 };
      return { toolCalls: [{ id: `s${steps}`, name: 'work', arguments: {} }], delayMs: 1_000 };
    }),
    tools: [tool({ name: 'work', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })],
  });
  return { open: (id: string) => agent.session({ id, store }), replies: () => replies };
}

/**
 * The kill case: 2 worker processes, 10 sessions of a 10-step turn with an approval each (each job
 * enqueued twice, as a redelivered webhook would), 3 SIGKILLs. The queue's own timeout on a job is
 * 10 minutes, longer than the case may run: every killed worker's job is handed on by the other
 * worker, from its session's lease, or the case loses turns.
 */
export function killCase(engine: 'bullmq' | 'pg-boss'): void {
  it('keeps every turn exactly once when 2 worker processes serve 10 sessions and are SIGKILLed, handing each killed job on without the queue timing it out', async () => {
    const report = await runQueueLoad({
      engine,
      workers: 2,
      sessions: 10,
      steps: 10,
      kills: { everySaves: 60, max: 3 },
      deadlineMs: 240_000,
      jobTimeoutMs: 600_000,
      duplicates: true,
    });
    const spread = (values: number[]) => {
      const ms = [...values].sort((x, y) => x - y);
      return `${ms.length}, median ${ms[Math.floor(ms.length / 2)] ?? '-'} ms, max ${ms.at(-1) ?? '-'} ms`;
    };
    console.log(
      `${engine}: ${report.kills} kills; leases taken over from the dead: ${spread(report.takenOverMs)}; the turn's next save: ${spread(report.takeoverMs)}`,
    );
    expect(report).toMatchObject({ lostTurns: 0, doubledTurns: 0, doubledToolRuns: 0, approvalsAppliedTwice: 0 });
    expect(report.turns).toBe(10);
    expect(report.kills).toBe(3);
    // A takeover is timed only when a kill left a session mid-turn (a kill between turns leaves none);
    // that every such session was finished by the other worker is what turns: 10 and lostTurns: 0 say.
    expect(report.takeoverMs.length).toBeLessThanOrEqual(report.kills * 10);
    for (const ms of report.takeoverMs) expect(ms).toBeGreaterThanOrEqual(0);
  }, 300_000);
}
