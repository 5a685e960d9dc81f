import type { RunContext } from '../contracts/agent-hook.js';
import type { Message } from '../messages/types.js';

/** What the compaction hook remembers of one run between steps. */
export interface HookMemory {
  /** An attempt changed nothing: stay quiet until one does. */
  quiet: boolean;
  /** The strategy (its summaries) is paused until the run has added this many messages. */
  pausedUntil: number | undefined;
  /** Messages the run has added so far: the transcript's length, had no compaction removed any. */
  added: number;
  /** The transcript's length when the hook last saw it. */
  length: number;
  /** The last attempt could not free the minimum gain: the next waits until the request is above this. */
  retryAbove: number | undefined;
  /** Lean mode: results before this index were already looked at by the per-step prune. */
  readFrom: number;
  /** Lean mode: the names the transcript shows before `readFrom`, which a digest need not repeat. */
  shownNames: Set<string>;
  /** Results of this run whose originals are kept for recall_tool_result. */
  recallable: number;
}

/** The hook's memory of `run`, with the messages added since the hook last looked counted. */
export function hookMemory(run: RunContext): HookMemory {
  const memory = run.hookMemory<HookMemory>('compaction', () => ({
    quiet: false,
    pausedUntil: undefined,
    added: 0,
    length: 0,
    retryAbove: undefined,
    readFrom: 0,
    shownNames: new Set<string>(),
    recallable: 0,
  }));
  memory.added += Math.max(0, run.messages.length - memory.length);
  // Something else removed messages (the executor's last-resort fit): look at everything again.
  if (run.messages.length < memory.length) readAgain(memory);
  memory.length = run.messages.length;
  return memory;
}

/** Lean mode's per-step prune starts over from the first message, with no names known as shown. */
export function readAgain(memory: HookMemory): void {
  memory.readFrom = 0;
  memory.shownNames = new Set();
}

/** Tokens of the newest assistant turn: its message and what follows it. */
export function newestTurnTokens(
  messages: readonly Message[],
  count: ((message: Message) => number) | undefined,
): number {
  let tokens = 0;
  for (let i = messages.length - 1; i >= 0 && count !== undefined; i--) {
    const message = messages[i] as Message;
    tokens += count(message);
    if (message.role === 'assistant') break;
  }
  return tokens;
}
