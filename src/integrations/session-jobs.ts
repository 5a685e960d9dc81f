import { createHash, randomUUID } from 'node:crypto';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { type DriveSessionResult, driveSession } from '../sessions/drive-session.js';
import type { Session } from '../sessions/session.js';
import type { SessionStatus } from '../sessions/session-types.js';
import type { SessionStore } from '../sessions/store.js';

/** What a session job carries: the session, and the turn to run when it is a turn's job. */
export interface SessionJobData {
  /** The session to drive. */
  sessionId: string;
  /** The input of the turn to run (absent: only continue what is unfinished). */
  input?: string | Message;
  /** The turn's idempotency key, fixed when the job was enqueued, so every delivery names the same turn. */
  idempotencyKey?: string;
}

/** A store that can list its sessions (every store of this library once it has `list()`). */
export type ListingStore = SessionStore & {
  list?(): Promise<Iterable<string | { id: string }>> | AsyncIterable<string | { id: string }>;
};

/** What both queue integrations take. */
export interface SessionQueueOptions {
  /** Opens a session by id, e.g. `(id) => agent.session({ id, store })`. */
  session: (id: string) => Session;
  /** The store the sessions are kept in, for requeueStuck() (its `list()` names the sessions). */
  store?: ListingStore;
  /**
   * Called after each delivery of a job drove its session (to notify an approver when it rests at
   * 'awaiting_approval', say). At least once per delivery, not once per change: a job the queue
   * delivers again (a worker that died after driving it, a job handed on) calls it again with the
   * same outcome, so make what it does idempotent (key a notification by the session and its calls).
   */
  onDriven?: (event: { sessionId: string; outcome: DriveSessionResult }) => void | Promise<void>;
  /**
   * How often each worker looks for jobs whose worker died, judged by their session's lease, and
   * hands them on at once, in ms (500; 0: never, leaving it to the queue's own timeout). A worker
   * provably dead (same host and PID namespace) is seen at the next look of any worker; one on
   * another host once its session's lease runs out (agent.session({ leaseMs }), 30 s by default).
   */
  takeoverCheckMs?: number;
}

/** The statuses that need a worker: a crashed turn, or one whose approvals are all decided. */
const needsWork = new Set<SessionStatus>(['turn_pending', 'decided']);

/** The data of a turn's job: the key is fixed now, so a redelivered job never starts a second turn. */
export function turnJob(sessionId: string, input: string | Message, idempotencyKey?: string): SessionJobData {
  if (typeof sessionId !== 'string' || sessionId === '') throw configError('enqueueTurn() needs a session id.');
  return { sessionId, input, idempotencyKey: idempotencyKey ?? randomUUID() };
}

/** Runs one delivery of a job: drives its session and reports; throws (so the queue retries) when the session is busy. */
export async function runSessionJob(options: SessionQueueOptions, data: SessionJobData): Promise<DriveSessionResult> {
  const { sessionId, input, idempotencyKey } = data;
  const outcome = await driveSession(options.session(sessionId), {
    ...(input === undefined ? {} : { input }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
  await options.onDriven?.({ sessionId, outcome });
  return outcome;
}

/**
 * Takes a decision on a call and, when the session now needs a drive job (every call it waited on
 * is decided), resolves to that job's key: the session and the point its turn waits at, so every
 * decision of that point (a webhook delivered twice, a repeated approve()) names the same job and
 * the queue keeps one. A repeated decision is a no-op; a different one is refused with
 * LOUSHO_SESSION_DECISION_FINAL.
 */
export async function decide(
  options: SessionQueueOptions,
  sessionId: string,
  toolCallId: string,
  decision: { approved: boolean; reason?: string },
): Promise<string | undefined> {
  const session = options.session(sessionId);
  if (decision.approved) await session.approve(toolCallId);
  else await session.reject(toolCallId, decision.reason === undefined ? {} : { reason: decision.reason });
  if (session.status !== 'decided') return undefined;
  const { messages } = session;
  const waiting = messages.findLast((m) => m.role === 'assistant');
  const calls = waiting?.role === 'assistant' ? (waiting.toolCalls ?? []).map((c) => c.id) : [];
  return jobKey(['decided', sessionId, String(messages.length), ...calls]);
}

/** A job id made of `parts`: the same parts give the same id (32 hex digits), which the queues keep one job of. */
export function jobKey(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** The ids the store lists (or `ids`), whose sessions need a worker and have no live one. */
export async function stuckSessions(
  options: SessionQueueOptions,
  ids?: Iterable<string>,
): Promise<{ id: string; status: SessionStatus }[]> {
  const listed = ids ?? (await listedIds(options.store));
  const stuck: { id: string; status: SessionStatus }[] = [];
  for (const id of listed) {
    const session = options.session(id);
    await session.load();
    if (needsWork.has(session.status)) stuck.push({ id, status: session.status });
  }
  return stuck;
}

async function listedIds(store: ListingStore | undefined): Promise<string[]> {
  if (typeof store?.list !== 'function') {
    throw configError(
      'requeueStuck() needs the ids of the sessions to look at: pass them, or pass a store with list() as the store option.',
      { option: 'store' },
    );
  }
  const ids: string[] = [];
  for await (const item of await store.list()) ids.push(typeof item === 'string' ? item : item.id);
  return ids;
}

/** What both queue integrations offer besides their engine's own parts. */
export interface SessionQueueMethods {
  /** Enqueues a turn on `input`; resolves to its idempotency key (given, or a new one), which every delivery carries. */
  enqueueTurn(sessionId: string, input: string | Message, options?: { idempotencyKey?: string }): Promise<string>;
  /** Enqueues a job that only continues what the session has unfinished. */
  enqueueDrive(sessionId: string): Promise<void>;
  /**
   * Approves a waiting call; once every call is decided, enqueues the resume, once per point the turn
   * waits at (a repeated decision enqueues nothing). Final (see Session.approve()).
   */
  approve(sessionId: string, toolCallId: string): Promise<void>;
  /** Rejects a waiting call; once every call is decided, enqueues the resume. Final (see Session.reject()). */
  reject(sessionId: string, toolCallId: string, options?: { reason?: string }): Promise<void>;
  /** Enqueues a drive job for every listed session a worker must continue ('turn_pending' or 'decided'), and returns them. */
  requeueStuck(ids?: Iterable<string>): Promise<{ id: string; status: SessionStatus }[]>;
}

/** An engine's enqueue: `key` (jobKey()), when given, is the job's id, and a job of that id already held is kept instead. */
export type AddJob = (data: SessionJobData, key?: string) => Promise<unknown>;

/** The methods of SessionQueueMethods over an engine's `add(data, key)`. */
export function sessionQueueMethods(options: SessionQueueOptions, add: AddJob): SessionQueueMethods {
  const decided = async (sessionId: string, key: string | undefined) => {
    if (key !== undefined) await add({ sessionId }, key);
  };
  return {
    async enqueueTurn(sessionId, input, turn = {}) {
      const data = turnJob(sessionId, input, turn.idempotencyKey);
      await add(data);
      return data.idempotencyKey as string;
    },
    enqueueDrive: async (sessionId) => void (await add({ sessionId })),
    approve: async (sessionId, toolCallId) =>
      decided(sessionId, await decide(options, sessionId, toolCallId, { approved: true })),
    reject: async (sessionId, toolCallId, reason = {}) =>
      decided(sessionId, await decide(options, sessionId, toolCallId, { approved: false, ...reason })),
    async requeueStuck(ids) {
      const stuck = await stuckSessions(options, ids);
      for (const { id } of stuck) await add({ sessionId: id });
      return stuck;
    },
  };
}

/** Loads an optional package lazily; LOUSHO_DEPENDENCY_MISSING naming `install` when it is absent. */
export async function optionalPackage<T>(load: () => Promise<T>, who: string, install: string): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      `${who} needs the ${install.split('@')[0]} package: npm install ${install}.`,
      {
        cause,
      },
    );
  }
}
