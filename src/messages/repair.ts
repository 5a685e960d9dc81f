import type { Message, ToolMessage } from './types.js';

/** One change repairTranscript() made. */
export interface TranscriptRepair {
  /** Index of the message concerned, in the input. */
  index: number;
  /** What was done; `description` says it in words. */
  change: 'dropped-orphan-result' | 'dropped-duplicate-result' | 'added-missing-result' | 'renamed-duplicate-call';
  /** The id of the tool call concerned (for a renamed call, its id before the renaming). */
  toolCallId: string;
  /** What was done, in words. */
  description: string;
}

/** The text of the result repairTranscript() gives a call that has none. */
export const MISSING_RESULT_TEXT = 'Error: no result was recorded for this tool call (repaired transcript).';

/**
 * Fixes what can be fixed safely in a transcript whose tool calls and results do not pair,
 * and reports each change: a result that answers no earlier call (or comes before its
 * call) is dropped; a second result of a call is dropped; a call with no result gets an
 * explicit error result right after its turn's results; a call whose id an earlier call
 * used gets a fresh id (with its results). The input is not modified; a transcript that
 * pairs already comes back as a copy with no changes. Message shapes are not repaired:
 * validateMessages() names a malformed message.
 *
 * @example
 * const { messages, changes } = repairTranscript(imported);
 * for (const c of changes) console.warn(`messages[${c.index}]: ${c.description}`);
 */
export function repairTranscript(messages: readonly Message[]): {
  /** The repaired transcript, a new array. */
  messages: Message[];
  /** Every change made, in order; empty when the transcript already paired. */
  changes: TranscriptRepair[];
} {
  const changes: TranscriptRepair[] = [];
  const out: Message[] = [];
  const made = new Set<string>();
  const answered = new Set<string>();
  /** Renamed ids of the current assistant turn: results after it answer the new id. */
  let renamed = new Map<string, string>();
  /** Calls of the open assistant turn still waiting for their result, with where the turn started in `out`. */
  let open: { calls: { id: string; name: string; index: number }[] } | undefined;

  const closeTurn = () => {
    for (const call of open?.calls ?? []) {
      if (answered.has(call.id)) continue;
      const result: ToolMessage = {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: MISSING_RESULT_TEXT,
        isError: true,
      };
      out.push(result);
      answered.add(call.id);
      changes.push({
        index: call.index,
        change: 'added-missing-result',
        toolCallId: call.id,
        description: `added an error result for call '${call.id}', which had none`,
      });
    }
    open = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = renamed.get(message.toolCallId) ?? message.toolCallId;
      if (!made.has(id)) {
        changes.push({
          index,
          change: 'dropped-orphan-result',
          toolCallId: id,
          description: `dropped a result of call '${id}', which no earlier assistant message made`,
        });
        return;
      }
      if (answered.has(id)) {
        changes.push({
          index,
          change: 'dropped-duplicate-result',
          toolCallId: id,
          description: `dropped a second result of call '${id}'`,
        });
        return;
      }
      answered.add(id);
      out.push(id === message.toolCallId ? message : { ...message, toolCallId: id });
      return;
    }
    closeTurn();
    renamed = new Map();
    if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) {
      out.push(message);
      return;
    }
    const calls = message.toolCalls.map((call) => {
      if (!made.has(call.id)) return call;
      let fresh = `${call.id}_${index}`;
      for (let n = 2; made.has(fresh); n++) fresh = `${call.id}_${index}_${n}`;
      renamed.set(call.id, fresh);
      changes.push({
        index,
        change: 'renamed-duplicate-call',
        toolCallId: call.id,
        description: `renamed call '${call.id}' to '${fresh}': an earlier call used that id`,
      });
      return { ...call, id: fresh };
    });
    for (const call of calls) made.add(call.id);
    open = { calls: calls.map((c) => ({ id: c.id, name: c.name, index })) };
    out.push(renamed.size === 0 ? message : { ...message, toolCalls: calls });
  });
  closeTurn();
  return { messages: out, changes };
}
