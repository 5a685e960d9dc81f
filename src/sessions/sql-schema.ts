import type { LeaseState } from './store.js';

/** The columns of the log table of the SQL stores, in order. */
export const LOG_TABLE_COLUMNS = ['session_id', 'seq', 'entry'] as const;
/** The columns of the snapshot-mark table of the SQL stores, in order: where each session's newest snapshot entry is. */
export const SNAPSHOT_TABLE_COLUMNS = ['session_id', 'seq'] as const;
/** The columns of the lease table of the SQL stores, in order. */
export const LEASE_TABLE_COLUMNS = ['session_id', 'holder', 'expires_at'] as const;

/**
 * Whether `holder` gets the lease given the current one: yes when there is none, it expired,
 * or it is already `holder`'s or `takeOver`'s.
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
