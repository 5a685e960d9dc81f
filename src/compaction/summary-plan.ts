import { isPinned } from '../messages/pin.js';
import { groupTurns, latestAssistantTurn } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { protectedTailStart } from './sizes.js';

/**
 * Chooses the messages a summary may replace, as their indices in order (whole turns only): whole turns before the protected tail,
 * before the latest assistant turn and before the last message, leaving out system
 * messages, pinned messages and any assistant turn that holds a pinned message.
 */
export function planSummary(
  messages: readonly Message[],
  protectedTokens: number,
  countMessage: (message: Message) => number,
): number[] {
  const turns = groupTurns(messages);
  let keepFrom = Math.min(protectedTailStart(messages, protectedTokens, countMessage), messages.length - 1);
  const latest = latestAssistantTurn(messages, turns);
  if (latest !== undefined) keepFrom = Math.min(keepFrom, latest.start);
  const summarized: number[] = [];
  for (const turn of turns) {
    if (turn.end > keepFrom) break; // a turn that straddles the boundary is kept whole
    let keep = false;
    for (let i = turn.start; i < turn.end && !keep; i++) {
      const m = messages[i] as Message;
      keep = m.role === 'system' || isPinned(m);
    }
    if (keep) continue;
    for (let i = turn.start; i < turn.end; i++) summarized.push(i);
  }
  return summarized;
}

/** Builds the compacted transcript: the summary where the first summarized message was, everything else in place. */
export function applySummary(messages: readonly Message[], summarized: readonly number[], summary: Message): Message[] {
  const drop = new Set(summarized);
  const first = summarized[0];
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (i === first) out.push(summary);
    if (!drop.has(i)) out.push(messages[i] as Message);
  }
  return out;
}
