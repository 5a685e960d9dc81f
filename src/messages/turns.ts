import type { Message } from './types.js';

/**
 * A run of consecutive messages that a strategy must keep or drop together. An
 * `'assistant'` turn is an assistant message that called tools, together with every
 * result of those calls (and anything between them); any other message is a turn of
 * its own (`'message'`).
 */
export interface Turn {
  /** 'assistant' for a message that called tools with its results; 'message' for any other message. */
  kind: 'assistant' | 'message';
  /** Index of the turn's first message. */
  start: number;
  /** Index just past the turn's last message. */
  end: number;
}

/** How to read tool calls and results from any message type, for {@link groupTurnsWith}. */
export interface TurnAccess<M> {
  /** The ids of the tool calls a message makes (empty for anything but an assistant message with calls). */
  callIds(message: M): readonly string[];
  /** The id of the call a tool result answers, or undefined for any other message. */
  resultId(message: M): string | undefined;
}

/** TurnAccess for this library's Message type. */
export const MESSAGE_TURN_ACCESS: TurnAccess<Message> = {
  callIds: (m) => (m.role === 'assistant' && m.toolCalls !== undefined ? m.toolCalls.map((c) => c.id) : []),
  resultId: (m) => (m.role === 'tool' ? m.toolCallId : undefined),
};

/**
 * Groups a transcript of any message type into turns, in order, covering every message
 * exactly once. A turn that calls tools runs from the calling message to the last result
 * of its calls (and of calls made inside that range), so whoever keeps or drops whole
 * turns never separates a call from its result. Linear in the number of messages.
 */
export function groupTurnsWith<M>(messages: readonly M[], access: TurnAccess<M>): Turn[] {
  const resultIndex = new Map<string, number>();
  for (let i = 0; i < messages.length; i++) {
    const id = access.resultId(messages[i] as M);
    if (id !== undefined) resultIndex.set(id, i);
  }
  const turns: Turn[] = [];
  let i = 0;
  while (i < messages.length) {
    let end = i + 1;
    if (access.callIds(messages[i] as M).length > 0) {
      for (let j = i; j < end; j++) {
        for (const id of access.callIds(messages[j] as M)) {
          const at = resultIndex.get(id);
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

/**
 * Groups a transcript into turns (see {@link Turn}): an assistant turn is an
 * assistant message that called tools together with every result of those calls.
 */
export function groupTurns(messages: readonly Message[]): Turn[] {
  return groupTurnsWith(messages, MESSAGE_TURN_ACCESS);
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
