import { isPinned } from '../messages/pin.js';
import { groupTurns, latestAssistantTurn } from '../messages/turns.js';
import type { Message } from '../messages/types.js';
import { protectedTailStart } from './sizes.js';

/** Which messages a summary replaces. */
export interface SummaryPlan {
  /** Indices of the messages to fold into the summary, in order (whole turns only). */
  summarized: number[];
  /** Index where the kept part starts: everything from here on stays as it is. */
  keepFrom: number;
}

/**
 * Chooses the messages a summary may replace: whole turns before the protected tail,
 * before the latest assistant turn and before the last message, leaving out system
 * messages, pinned messages and any assistant turn that holds a pinned message.
 */
export function planSummary(
  messages: readonly Message[],
  protectedTokens: number,
  countMessage: (message: Message) => number,
): SummaryPlan {
  const turns = groupTurns(messages);
  let keepFrom = Math.min(protectedTailStart(messages, protectedTokens, countMessage), messages.length - 1);
  const latest = latestAssistantTurn(messages, turns);
  if (latest !== undefined) keepFrom = Math.min(keepFrom, latest.start);
  const summarized: number[] = [];
  for (const turn of turns) {
    if (turn.end > keepFrom) {
      // A turn that straddles the boundary is kept whole.
      keepFrom = Math.min(keepFrom, turn.start);
      break;
    }
    let keep = false;
    for (let i = turn.start; i < turn.end && !keep; i++) {
      const m = messages[i] as Message;
      keep = m.role === 'system' || isPinned(m);
    }
    if (keep) continue;
    for (let i = turn.start; i < turn.end; i++) summarized.push(i);
  }
  return { summarized, keepFrom: Math.max(keepFrom, 0) };
}

/** Builds the compacted transcript: the summary where the first summarized message was, everything else in place. */
export function applySummary(messages: readonly Message[], plan: SummaryPlan, summary: Message): Message[] {
  const drop = new Set(plan.summarized);
  const first = plan.summarized[0];
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (i === first) out.push(summary);
    if (!drop.has(i)) out.push(messages[i] as Message);
  }
  return out;
}
