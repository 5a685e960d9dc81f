/**
 * Timing of a piece of code in two clocks: wall-clock time (performance.now()) and the
 * process's CPU time (process.cpuUsage(), user and system, every thread of the process, so
 * the garbage collector's work is in it). On a machine other processes load, wall-clock time
 * also counts the time the process waited for a core: a step's wall-clock median moved by
 * 4x between identical runs at a load average of 15 on 2 cores, its CPU time by a few tens of
 * percent. The benchmarks' ratios are taken on CPU time, and show wall-clock time beside it.
 */

/** The time a piece of code took, in both clocks. */
export interface Took {
  wallMs: number;
  cpuMs: number;
}

/** Starts both clocks; the function returned reads how long it has been since. */
export function startClock(): () => Took {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

/** Per-step times in both clocks, which a step can add to more than once (a hook's two calls). */
export class StepTimes {
  readonly wallMs: number[] = [];
  readonly cpuMs: number[] = [];

  /** Starts a new step at 0. */
  next(): void {
    this.wallMs.push(0);
    this.cpuMs.push(0);
  }

  /** Adds `took` to the current step. */
  add(took: Took): void {
    const i = this.wallMs.length - 1;
    if (i < 0) throw new Error('StepTimes.add() before next()');
    this.wallMs[i] = (this.wallMs[i] as number) + took.wallMs;
    this.cpuMs[i] = (this.cpuMs[i] as number) + took.cpuMs;
  }

  /** Times `run` and adds it to the current step. */
  async time<T>(run: () => T | Promise<T>): Promise<T> {
    const stop = startClock();
    try {
      return await run();
    } finally {
      this.add(stop());
    }
  }

  get length(): number {
    return this.wallMs.length;
  }
}

/** The least of `runs` timings of `work`, in each clock on its own. */
export function leastOf(runs: number, work: () => void): Took {
  let best: Took = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
  for (let r = 0; r < runs; r++) {
    const stop = startClock();
    work();
    const took = stop();
    best = { wallMs: Math.min(best.wallMs, took.wallMs), cpuMs: Math.min(best.cpuMs, took.cpuMs) };
  }
  return best;
}
