import { type RenamedCall, renameReusedCallIds } from './reused-call-ids.js';
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
  const renaming = renameReusedCallIds(messages);
  const changes: TranscriptRepair[] = [];
  const renamedAt = new Map<number, RenamedCall[]>();
  for (const r of renaming.renamed) renamedAt.set(r.index, [...(renamedAt.get(r.index) ?? []), r]);
  const out: Message[] = [];
  const made = new Set<string>();
  const answered = new Set<string>();
  /** Calls of the open assistant turn still waiting for their result. */
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

  renaming.messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.toolCallId;
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
      out.push(message);
      return;
    }
    closeTurn();
    for (const { id, renamed } of renamedAt.get(index) ?? []) {
      const description = `renamed call '${id}' to '${renamed}': an earlier call used that id`;
      changes.push({ index, change: 'renamed-duplicate-call', toolCallId: id, description });
    }
    out.push(message);
    if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) return;
    for (const call of message.toolCalls) made.add(call.id);
    open = { calls: message.toolCalls.map((c) => ({ id: c.id, name: c.name, index })) };
  });
  closeTurn();
  return { messages: out, changes };
}
