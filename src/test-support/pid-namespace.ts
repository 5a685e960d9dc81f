/**
 * Child processes in a PID namespace of their own (`unshare --pid --fork`, as a container has),
 * for the tests of what a store does when a process it cannot judge from here dies: its pid
 * means nothing in this namespace, so nothing may treat it as provably dead.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Child } from './child-process.js';

const LAUNCHER = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

let checked: string | undefined | null = null;

/** Why children cannot get a PID namespace of their own here (undefined: they can). */
export function pidNamespaceProblem(): string | undefined {
  if (checked !== null) return checked;
  const run = spawnSync(LAUNCHER[0] as string, [...LAUNCHER.slice(1), 'true'], { encoding: 'utf8' });
  checked =
    run.status === 0
      ? undefined
      : `\`unshare --pid --fork\` is not permitted here (${(run.error?.message ?? run.stderr.trim()) || `exit ${run.status}`}); it needs root or user namespaces`;
  return checked;
}

/** Starts `node <script> ...args` as the first process of a new PID namespace. */
export function startInNewPidNamespace(script: string, args: string[]): Promise<Child> {
  return Child.start(script, args, {}, LAUNCHER);
}

/** SIGKILLs the namespace's process from here (its pid here, not its own) and waits until it is reaped. */
export async function killInNamespace(child: Child): Promise<void> {
  const launcher = child.process.pid as number;
  const children = await readFile(`/proc/${launcher}/task/${launcher}/children`, 'utf8').catch(() => '');
  for (const pid of children.trim().split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
  if (children.trim() === '') child.process.kill('SIGKILL');
  await child.exit;
}
