import { randomUUID } from 'node:crypto';
import { LoushoError } from '../errors/lousho-error.js';
import { provablyDead, thisProcess } from './process-identity.js';
import type { LeaseState, SessionStore } from './store.js';

/**
 * How long a session's lease lasts unless renewed (agent.session({ leaseMs }) changes it). A
 * turn renews it every third of this while it runs, so only a writer that died (or hangs)
 * lets it run out; another process can then take the session over. A holder that is provably
 * dead (same host, boot and PID namespace, and its pid is gone) is taken over at once.
 */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * A new lease-holder id: `<host>:<boot id>:<pid namespace>:<pid>:<random>`, so a holder of
 * this host, boot and PID namespace whose process is gone can be recognised as dead.
 */
export function newHolderId(): string {
  const me = thisProcess();
  return `${me.host}:${me.boot}:${me.pidNamespace}:${me.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * True only when `holder` provably names a process that no longer exists: same host, same
 * boot, same PID namespace, and its pid is gone. Any other holder (another machine, another
 * container, an id of another form) keeps its lease until it expires.
 */
export function holderIsDead(holder: string): boolean {
  const parts = holder.split(':');
  if (parts.length < 5) return false;
  const [boot, pidNamespace, pid] = parts.slice(-4, -1) as [string, string, string];
  return provablyDead({ host: parts.slice(0, -4).join(':'), boot, pidNamespace, pid: Number(pid) });
}

/** The error for a session whose lease someone else holds. */
export function sessionBusy(id: string, what: string, lease: LeaseState, ttlMs: number): LoushoError {
  return new LoushoError(
    'LOUSHO_SESSION_BUSY',
    `Session '${id}' cannot ${what}: another writer (${lease.holder}) holds it until ` +
      `${new Date(lease.expiresAt).toISOString()}. Wait for its turn to finish; if that process died, its lease ` +
      'runs out when it is no longer renewed (agent.session({ leaseMs }), 30 s by default) and session.resume() ' +
      'can then take the turn over.',
    { details: { id, holder: lease.holder, expiresAt: lease.expiresAt, leaseMs: ttlMs } },
  );
}

/**
 * The lease rule: whether `holder` gets the lease given the current one. Yes when there is
 * none, it expired, or it is already `holder`'s or `takeOver`'s; a renewal is the same call
 * without `takeOver`. The memory, file and SQLite stores decide with it; Postgres and Redis
 * apply the same rule in their atomic statement and script (by the server's clock).
 */
export function leaseDecision(
  current: { holder: string; expiresAt: number } | undefined,
  holder: string,
  ttlMs: number,
  takeOver: string | undefined,
  now: number,
): LeaseState {
  const free =
    current === undefined ||
    current.holder === holder ||
    (takeOver !== undefined && current.holder === takeOver) ||
    Number(current.expiresAt) <= now;
  if (!free) return { acquired: false, holder: current.holder, expiresAt: Number(current.expiresAt) };
  return { acquired: true, holder, expiresAt: now + ttlMs };
}

/**
 * What the session's lease says of its writer: 'gone' when its holder is provably dead or the lease
 * ran out (by the store's clock: a holder on another host or in another container is gone once it
 * stopped renewing for the lease's length), 'free' when no lease is recorded (between operations),
 * 'held' while a holder that may be alive keeps it, or the store cannot say (no readLease()). What a
 * queue's workers read to hand on a job whose worker died, without waiting for the queue's timeout.
 */
export async function writerOf(store: SessionStore, id: string): Promise<'held' | 'free' | 'gone'> {
  if (typeof store.readLease !== 'function') return 'held';
  const lease = await store.readLease(id);
  if (lease === undefined) return 'free';
  return lease.remainingMs <= 0 || holderIsDead(lease.holder) ? 'gone' : 'held';
}
