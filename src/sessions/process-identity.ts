import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Where a process runs, as far as another process can tell whether it is still alive: its
 * host name, the host's boot id, its PID namespace and its pid. Two processes can judge each
 * other by pid only when all of host, boot and namespace match (containers with host
 * networking share a host name but not a PID namespace, and a pid means nothing across a reboot).
 */
export interface ProcessIdentity {
  host: string;
  /** `/proc/sys/kernel/random/boot_id`, or '-' where the system does not say. */
  boot: string;
  /** The inode of `/proc/self/ns/pid`, or '-' where the system does not say. */
  pidNamespace: string;
  pid: number;
}

function readOr(read: () => string): string {
  try {
    return read().trim() || '-';
  } catch {
    return '-';
  }
}

let current: ProcessIdentity | undefined;

/** This process's identity (host, boot and namespace read once; the pid read each time, as a fork changes it). */
export function thisProcess(): ProcessIdentity {
  current ??= {
    host: hostname(),
    boot: readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: readOr(() => /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? ''),
    pid: process.pid,
  };
  return { ...current, pid: process.pid };
}

/**
 * True only when `other` is provably gone: it ran on this host, in this boot, in this PID
 * namespace (all known), and no process has its pid. Anything else (another host or namespace,
 * a system that does not say, a pid that exists) is not proof: such a holder's lease must expire.
 */
export function provablyDead(other: ProcessIdentity): boolean {
  const me = thisProcess();
  if (other.host !== me.host || other.boot !== me.boot || other.pidNamespace !== me.pidNamespace) return false;
  if (me.boot === '-' || me.pidNamespace === '-') return false;
  if (!Number.isInteger(other.pid) || other.pid <= 0 || other.pid === me.pid) return false;
  try {
    process.kill(other.pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}
