import type { RunContext } from '../contracts/agent-hook.js';

/** What the compaction hook remembers of one run between steps. */
export interface HookMemory {
  /** An attempt changed nothing: stay quiet until one does. */
  quiet: boolean;
  /** Summaries are paused (the fallback runs) until the transcript has this many messages. */
  pausedUntil: number | undefined;
  /** The transcript's length when the hook last saw it. */
  length: number;
  /** Lean mode: results before this index were already looked at by the per-step prune. */
  readFrom: number;
  /** Lean mode: the names the transcript shows before `readFrom`, which a digest need not repeat. */
  shownNames: Set<string>;
  /** Results of this run whose originals are kept for recall_tool_result. */
  recallable: number;
}

/** The hook's memory of `run`; lean mode's position is reset when something else removed messages. */
export function hookMemory(run: RunContext): HookMemory {
  const memory = run.hookMemory<HookMemory>('compaction', () => ({
    quiet: false,
    pausedUntil: undefined,
    length: 0,
    readFrom: 0,
    shownNames: new Set<string>(),
    recallable: 0,
  }));
  // Something else removed messages (the executor's overflow recovery): look at everything again.
  if (run.messages.length < memory.length) readAgain(memory);
  memory.length = run.messages.length;
  return memory;
}

/** Lean mode's per-step prune starts over from the first message, with no names known as shown. */
export function readAgain(memory: HookMemory): void {
  memory.readFrom = 0;
  memory.shownNames = new Set();
}
