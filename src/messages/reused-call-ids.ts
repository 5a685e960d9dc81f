import type { Message } from './types.js';

/** One call renamed by {@link renameReusedCallIds}. */
export interface RenamedCall {
  /** Index of the assistant message that makes the call. */
  index: number;
  /** The id it had, which an earlier call used. */
  id: string;
  /** The id it has now; its results carry it too. */
  renamed: string;
}

/**
 * Gives a fresh id (`<id>_<index>`) to every tool call whose id an earlier call of the
 * transcript used, and to the results right after it, so each result pairs with the latest
 * open call of its id, as the provider that wrote it did. With `onlyAnswered`, a call is
 * renamed only when every earlier call of its id was answered (a real log's reuse); an id
 * reused while its earlier call still waits is left for validation to name. The input is not
 * modified; messages that change are copied.
 */
export function renameReusedCallIds(
  messages: readonly Message[],
  options: { onlyAnswered?: boolean } = {},
): { messages: Message[]; renamed: RenamedCall[] } {
  const made = new Set<string>();
  const waiting = new Set<string>();
  const renamedCalls: RenamedCall[] = [];
  let turn = new Map<string, string>();
  const out = messages.map((message, index): Message => {
    if (message.role === 'tool') {
      const id = turn.get(message.toolCallId) ?? message.toolCallId;
      waiting.delete(id);
      return id === message.toolCallId ? message : { ...message, toolCallId: id };
    }
    turn = new Map();
    if (message.role !== 'assistant' || message.toolCalls === undefined) return message;
    const calls = message.toolCalls.map((call) => {
      if (!made.has(call.id) || (options.onlyAnswered === true && waiting.has(call.id))) return call;
      let fresh = `${call.id}_${index}`;
      for (let n = 2; made.has(fresh); n++) fresh = `${call.id}_${index}_${n}`;
      turn.set(call.id, fresh);
      renamedCalls.push({ index, id: call.id, renamed: fresh });
      return { ...call, id: fresh };
    });
    for (const call of calls) {
      made.add(call.id);
      waiting.add(call.id);
    }
    return turn.size === 0 ? message : { ...message, toolCalls: calls };
  });
  return { messages: out, renamed: renamedCalls };
}
