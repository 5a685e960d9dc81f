import type { Message } from './types.js';

/**
 * A run of consecutive messages that a strategy must keep or drop together. An
 * `'assistant'` turn is an assistant message that called tools, together with every
 * result of those calls (and anything between them); any other message is a turn of
 * its own (`'message'`).
 */
export interface Turn {
  kind: 'assistant' | 'message';
  /** Index of the turn's first message. */
  start: number;
  /** Index just past the turn's last message. */
  end: number;
}

/**
 * Groups a transcript into turns, in order, covering every message exactly once. An
 * assistant turn runs from the assistant message to the last result of its calls, so
 * a strategy that keeps or drops whole turns never separates a call from its result.
 * Linear in the number of messages.
 */
export function groupTurns(messages: readonly Message[]): Turn[] {
  const resultIndex = new Map<string, number>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool') resultIndex.set(m.toolCallId, i);
  }
  const turns: Turn[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as Message;
    let end = i + 1;
    if (m.role === 'assistant' && m.toolCalls !== undefined && m.toolCalls.length > 0) {
      // Extend to the last result of every call, and of every call inside that range.
      for (let j = i; j < end; j++) {
        const inner = messages[j] as Message;
        if (inner.role !== 'assistant' || inner.toolCalls === undefined) continue;
        for (const call of inner.toolCalls) {
          const at = resultIndex.get(call.id);
          if (at !== undefined && at >= end) end = at + 1;
        }
      }
      turns.push({ kind: 'assistant', start: i, end });
    } else {
      turns.push({ kind: 'message', start: i, end });
    }
    i = end;
  }
  return turns;
}

/** Index of the last assistant message, or -1. Its tool results have not been read by the model yet. */
export function latestAssistantIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if ((messages[i] as Message).role === 'assistant') return i;
  return -1;
}

/**
 * The turn that holds the latest assistant message, or undefined when there is none.
 * Its results are never pruned or summarized.
 */
export function latestAssistantTurn(messages: readonly Message[], turns = groupTurns(messages)): Turn | undefined {
  const at = latestAssistantIndex(messages);
  if (at < 0) return undefined;
  for (let t = turns.length - 1; t >= 0; t--) {
    const turn = turns[t] as Turn;
    if (turn.start <= at && at < turn.end) return turn;
  }
  return undefined;
}
