import { type RenamedCall, renameReusedCallIds } from './reused-call-ids.js';
import type { ContentPart, Message, ToolMessage, UserMessage } from './types.js';

/** One change repairTranscript() made. */
export interface TranscriptRepair {
  /** Index of the message concerned, in the input. */
  index: number;
  /**
   * What was done; `description` says it in words. A result is never dropped: it is moved to
   * its call, joined into the call's first result, read once (an exact copy), or kept as a note.
   */
  change:
    | 'moved-result'
    | 'joined-second-result'
    | 'read-copy-once'
    | 'kept-orphan-as-note'
    | 'added-missing-result'
    | 'renamed-duplicate-call';
  /** The id of the tool call concerned (for a renamed call, its id before the renaming). */
  toolCallId: string;
  /** What was done, in words. */
  description: string;
}

/** Options of {@link repairTranscript}. */
export interface RepairTranscriptOptions {
  /**
   * Leave the calls of the last assistant message waiting when only tool results follow it
   * (a run that stopped mid-step), instead of giving them error results. Default false.
   */
  pendingCalls?: boolean;
}

/** The text of the result repairTranscript() gives a call that has none, as the model reads it. */
export const MISSING_RESULT_TEXT =
  'Error: no result of this tool call was recorded. The transcript holds none, so its real result is unknown ' +
  '(the tool may never have run); this note was put in its place when the transcript was repaired.';

interface Call {
  id: string;
  name: string;
  /** Index of the assistant message that makes it. */
  at: number;
  /** Indexes of the tool messages that answer it, in order. */
  results: number[];
}

type Content = ToolMessage['content'];
const parts = (content: Content): ContentPart[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;
/** `note` then `content`, as a string when `content` is one, else as parts. */
const withNote = (note: string, content: Content): Content =>
  typeof content === 'string' ? `${note}\n${content}` : [{ type: 'text', text: note }, ...content];
const joined = (first: Content, note: string, second: Content): Content =>
  typeof first === 'string' && typeof second === 'string'
    ? `${first}\n\n${note}\n${second}`
    : [...parts(first), { type: 'text', text: note }, ...parts(second)];
const sameContent = (a: ToolMessage, b: ToolMessage) =>
  JSON.stringify(a.content) === JSON.stringify(b.content) && (a.isError ?? false) === (b.isError ?? false);

/**
 * Which call each tool result answers. A result goes to the latest call of its id made before
 * it that has no result yet; else to the first such call made after it (a result logged before
 * its call); else, when calls of its id all have one, it is a second result of the latest made
 * before it (or the first after). A result whose id no call has is an orphan (undefined).
 */
function assignResults(messages: readonly Message[], renamed: readonly RenamedCall[]): (Call | undefined)[] {
  const original = new Map(renamed.map((r) => [r.renamed, r.id]));
  const byId = new Map<string, Call[]>();
  messages.forEach((m, at) => {
    if (m.role !== 'assistant') return;
    for (const c of m.toolCalls ?? []) {
      const id = original.get(c.id) ?? c.id;
      byId.set(id, [...(byId.get(id) ?? []), { id: c.id, name: c.name, at, results: [] }]);
    }
  });
  const owner: (Call | undefined)[] = messages.map(() => undefined);
  const candidates = (m: ToolMessage) => {
    const id = m.toolCallId;
    const calls = byId.get(original.get(id) ?? id) ?? [];
    return original.has(id) ? calls.filter((c) => c.id === id) : calls;
  };
  const deferred: number[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'tool') return;
    const call = candidates(m).findLast((c) => c.at < i && c.results.length === 0);
    if (call === undefined) deferred.push(i);
    else owner[i] = call;
    call?.results.push(i);
  });
  for (const i of deferred) {
    const calls = candidates(messages[i] as ToolMessage);
    const call = calls.find((c) => c.at > i && c.results.length === 0) ?? calls.findLast((c) => c.at < i) ?? calls[0];
    owner[i] = call;
    if (call !== undefined) call.results = [...call.results, i].sort((a, b) => a - b);
  }
  return owner;
}

/**
 * Makes a transcript whose tool calls and results do not pair valid without inventing or
 * discarding anything the transcript holds, and reports each change:
 * - a result logged away from its call (later, after other messages, or before the call) is
 *   moved to right after its call;
 * - a second result of a call is joined into the first, under a line saying it is the second
 *   (an exact copy of the first is read once);
 * - a result that answers no call of the transcript is kept as a user note in its place,
 *   naming the call id, since no call can take it;
 * - a call with no result at all gets an error result saying that its real result was never
 *   recorded ({@link MISSING_RESULT_TEXT}), right after its turn's results;
 * - a call whose id an earlier call used gets a fresh id (with its results).
 * The input is not modified; a transcript that pairs already comes back as a copy with no
 * changes. Message shapes are not repaired: validateMessages() names a malformed message.
 *
 * @example
 * const { messages, changes } = repairTranscript(imported);
 * for (const c of changes) console.warn(`messages[${c.index}]: ${c.description}`);
 */
export function repairTranscript(
  messages: readonly Message[],
  options: RepairTranscriptOptions = {},
): {
  /** The repaired transcript, a new array. */
  messages: Message[];
  /** Every change made, by index; empty when the transcript already paired. */
  changes: TranscriptRepair[];
} {
  const renaming = renameReusedCallIds(messages);
  const input = renaming.messages;
  const changes: TranscriptRepair[] = renaming.renamed.map(({ index, id, renamed }) => ({
    index,
    change: 'renamed-duplicate-call',
    toolCallId: id,
    description: `renamed call '${id}' to '${renamed}': an earlier call used that id`,
  }));
  const change = (index: number, kind: TranscriptRepair['change'], toolCallId: string, description: string) =>
    changes.push({ index, change: kind, toolCallId, description });
  const owner = assignResults(input, renaming.renamed);
  const lastTurn = input.findLastIndex((m) => m.role !== 'tool');
  const pending = options.pendingCalls === true && input[lastTurn]?.role === 'assistant' ? lastTurn : -1;

  /** A call's one result: its first, with every other joined in (or read once, when a copy). */
  const resultOf = (call: Call): ToolMessage => {
    const [first, ...others] = call.results.map((i) => input[i] as ToolMessage);
    // A result logged away from its call may still carry the id the call had before a renaming.
    let result = first?.toolCallId === call.id ? first : ({ ...first, toolCallId: call.id } as ToolMessage);
    const from = call.results[0] as number;
    others.forEach((other, n) => {
      const i = call.results[n + 1] as number;
      const copied = call.results.slice(0, n + 1).find((j) => sameContent(other, input[j] as ToolMessage));
      if (copied !== undefined) {
        change(
          i,
          'read-copy-once',
          call.id,
          `read a second result of call '${call.id}' once: it is a copy of messages[${copied}]`,
        );
        return;
      }
      const note = `[A second result of this call was recorded too${other.isError === true ? ' (as an error)' : ''}; it follows, kept when the transcript was repaired:]`;
      result = { ...result, content: joined(result.content, note, other.content) };
      change(
        i,
        'joined-second-result',
        call.id,
        `joined a second result of call '${call.id}' into its first (messages[${from}]), marked as the second`,
      );
    });
    return result;
  };

  const out: Message[] = [];
  let notes: UserMessage[] = [];
  const flushNotes = () => {
    out.push(...notes);
    notes = [];
  };
  const calls = new Map<number, Call[]>();
  for (const call of new Set(owner)) if (call !== undefined) calls.set(call.at, [...(calls.get(call.at) ?? []), call]);
  input.forEach((message, index) => {
    if (message.role === 'tool') {
      if (owner[index] !== undefined) return; // written with its call
      const id = message.toolCallId;
      const named = message.toolName === undefined ? '' : ` (${message.toolName})`;
      const note = `[A result of tool call '${id}'${named} was recorded here, but no assistant message makes that call; it follows, kept as a note when the transcript was repaired:]`;
      const metadata = message.metadata === undefined ? {} : { metadata: message.metadata };
      notes.push({ role: 'user', content: withNote(note, message.content), ...metadata });
      change(
        index,
        'kept-orphan-as-note',
        id,
        `kept a result of call '${id}', which no assistant message makes, as a user note`,
      );
      return;
    }
    if (index !== pending) flushNotes();
    out.push(message);
    if (message.role !== 'assistant') return;
    const answered = (calls.get(index) ?? []).filter((c) => c.results.length > 0);
    const ends = (c: Call) => c.results[0] as number;
    for (const call of answered.sort((a, b) => ends(a) - ends(b))) {
      const from = ends(call);
      if (input.slice(index + 1, from).some((m) => m.role !== 'tool') || from < index)
        change(
          from,
          'moved-result',
          call.id,
          `moved the result of call '${call.id}' to right after its call (messages[${index}]): it was logged ${from < index ? 'before the call' : 'after other messages'}`,
        );
      out.push(resultOf(call));
    }
    if (index === pending) return;
    for (const call of message.toolCalls ?? []) {
      if (answered.some((c) => c.id === call.id)) continue;
      out.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: MISSING_RESULT_TEXT, isError: true });
      change(
        index,
        'added-missing-result',
        call.id,
        `added an error result for call '${call.id}': the transcript holds no result for it, so the result says its real one was never recorded`,
      );
    }
  });
  // Notes that come after a turn still waiting for its results go before it.
  if (pending >= 0 && notes.length > 0) out.splice(out.lastIndexOf(input[pending] as Message), 0, ...notes);
  else flushNotes();
  return { messages: out, changes: changes.sort((a, b) => a.index - b.index) };
}
