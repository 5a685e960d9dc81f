/** The columns of the log table of the SQL stores, in order. */
export const LOG_TABLE_COLUMNS = ['session_id', 'seq', 'entry'] as const;
/** The columns of the snapshot-mark table of the SQL stores, in order: where each session's newest snapshot entry is. */
export const SNAPSHOT_TABLE_COLUMNS = ['session_id', 'seq'] as const;
/** The columns of the lease table of the SQL stores, in order. */
export const LEASE_TABLE_COLUMNS = ['session_id', 'holder', 'expires_at'] as const;
