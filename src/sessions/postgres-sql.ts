/** The statements of PostgresSessionStore: each read and write of a session is one statement, so one atomic step. */

export const LOG = 'lousho_session_log';
export const LEASES = 'lousho_session_leases';
export const SNAPSHOTS = 'lousho_session_snapshots';
/** Server time in ms, so every process judges expiry by one clock. */
export const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

export const SCHEMA = `BEGIN;
SELECT pg_advisory_xact_lock(4283901157);
CREATE TABLE IF NOT EXISTS ${LOG} (session_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (session_id, seq));
CREATE TABLE IF NOT EXISTS ${LEASES} (session_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS ${SNAPSHOTS} (session_id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
COMMIT;`;

/**
 * Appends when the sequence is still the expected one and, with $5, the lease still names that
 * holder; with $4, marks the new row as the newest snapshot entry, in the same statement.
 */
export const APPEND = `WITH added AS (INSERT INTO ${LOG} (session_id, seq, entry) SELECT $1, $2::int + 1, $3
  WHERE (SELECT COALESCE(MAX(seq), 0) FROM ${LOG} WHERE session_id = $1) = $2::int
  AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM ${LEASES} WHERE session_id = $1 AND holder = $5)) RETURNING seq),
marked AS (INSERT INTO ${SNAPSHOTS} (session_id, seq) SELECT $1, seq FROM added WHERE $4::boolean
  ON CONFLICT (session_id) DO UPDATE SET seq = EXCLUDED.seq)
SELECT seq FROM added`;

/** The rows from the newest snapshot entry on: one statement, so one consistent view of the log. */
export const READ_LATEST = `SELECT seq, entry FROM ${LOG} WHERE session_id = $1
  AND seq >= COALESCE((SELECT seq FROM ${SNAPSHOTS} WHERE session_id = $1), 1) ORDER BY seq`;

/** The entry at a version and every one after it. */
export const READ_AFTER = `SELECT seq, entry FROM ${LOG} WHERE session_id = $1 AND seq >= $2 ORDER BY seq`;

export const ACQUIRE = `INSERT INTO ${LEASES} (session_id, holder, expires_at) VALUES ($1, $2, ${NOW_MS} + $3)
ON CONFLICT (session_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
WHERE ${LEASES}.holder = $2 OR ${LEASES}.holder = $4 OR ${LEASES}.expires_at <= ${NOW_MS}
RETURNING holder, expires_at`;

/** The lease's holder and the ms it has left, by the server's clock. */
export const READ_LEASE = `SELECT holder, expires_at - ${NOW_MS} AS remaining FROM ${LEASES} WHERE session_id = $1`;
