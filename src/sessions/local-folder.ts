import { statfs } from 'node:fs/promises';
import { configError } from '../errors/lousho-error.js';

/**
 * The network and cluster file systems Linux names in statfs(2)'s f_type: on these, the clock of
 * each client judges a file store's leases, and the atomic steps it relies on are not promised.
 */
const NETWORK_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xfe534d42, 'SMB2'],
  [0xff534d42, 'CIFS'],
  [0x00c36400, 'Ceph'],
  [0x5346414f, 'AFS'],
  [0x73757245, 'Coda'],
  [0x564c, 'NCP'],
  [0x0bd00bd0, 'Lustre'],
  [0x47504653, 'GPFS'],
  [0x01161970, 'GFS2'],
  [0x7461636f, 'OCFS2'],
]);

/** The name of the network file system statfs(2) reports as `type`, or undefined for a local one. */
export function networkFileSystem(type: number): string | undefined {
  return NETWORK_FILE_SYSTEMS.get(type >>> 0);
}

/**
 * Refuses (LOUSHO_CONFIG_INVALID, naming `option`) a folder on a network file system, where the
 * system says so (Linux); a folder that does not exist yet, or a system that does not say, is let
 * be. The file and SQLite stores are single-host: their leases expire by each process's clock.
 */
export async function checkLocalFolder(folder: string, store: string, option: string): Promise<void> {
  if (process.platform !== 'linux') return;
  const found = await statfs(folder).then(
    (s) => networkFileSystem(Number(s.type)),
    () => undefined,
  );
  if (found === undefined) return;
  throw configError(
    `${store}: ${folder} is on a network file system (${found}). This store is for one host: its leases ` +
      'expire by the clock of each process that reads them, and its atomic steps are not promised there. Give ' +
      `${option} a folder on a local disk, or share a KVSessionStore or PostgresSessionStore between hosts.`,
    { option },
  );
}
