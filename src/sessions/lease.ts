import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LoushoError } from '../errors/lousho-error.js';
import type { LeaseState } from './store.js';

/**
 * How long a session's lease lasts unless renewed (agent.session({ leaseMs }) changes it). A
 * turn renews it every third of this while it runs, so only a writer that died (or hangs)
 * lets it run out; another process can then take the session over. A holder on the same
 * machine whose process is gone is taken over at once.
 */
export const DEFAULT_LEASE_MS = 30_000;

/** A new lease-holder id: `<host>:<pid>:<random>`, so a dead holder on this machine can be recognised. */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** True when `holder` names a process of this machine that no longer exists. */
export function holderIsDead(holder: string): boolean {
  const parts = holder.split(':');
  if (parts.length < 3) return false;
  const pid = Number(parts.at(-2));
  const host = parts.slice(0, -2).join(':');
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
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
