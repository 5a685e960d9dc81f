import { configError } from '../errors/lousho-error.js';
import { SessionLog } from './session-log.js';
import type { SessionStatus } from './session-types.js';
import type { SessionStore, StoredSession } from './store.js';

/** One session as listSessions() names it: its id, its lease, and what its log says it is doing. */
export interface ListedSession extends StoredSession {
  /**
   * What the session's log says: 'idle', 'turn_pending' (a turn did not finish: running in the
   * process that holds an unexpired lease, else left by a process that stopped), 'awaiting_approval'
   * or 'decided' (every call it waited on is decided: ready for resume()).
   */
  status: Exclude<SessionStatus, 'running'>;
}

/**
 * Every session the store holds, with its lease and its status, for a cleanup process: the
 * sessions a worker must continue are 'turn_pending' with no unexpired lease, and 'decided'.
 * Reads each session from its newest snapshot. Needs a store with list() (every store of this
 * library has it).
 *
 * @example
 * const stuck = (await listSessions(store)).filter(
 *   (s) => s.status === 'decided' || (s.status === 'turn_pending' && (s.expiresAt ?? 0) < Date.now()),
 * );
 */
export async function listSessions(store: SessionStore): Promise<ListedSession[]> {
  if (typeof store?.list !== 'function') {
    throw configError(`listSessions() needs a store with list(); ${store?.description ?? 'this one'} has none.`);
  }
  const listed: ListedSession[] = [];
  for (const session of await store.list()) {
    const log = new SessionLog(store, session.id, () => '');
    await log.read();
    listed.push({ ...session, status: log.state.status });
  }
  return listed;
}
