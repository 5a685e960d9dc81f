import { repairTranscript, type TranscriptRepair } from '../messages/repair.js';
import { renameReusedCallIds } from '../messages/reused-call-ids.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/** Options every `from...()` converter takes. */
export interface ConvertOptions {
  /**
   * Apply repairTranscript() to what was read, so a transcript whose calls and results do
   * not pair (an orphan result, a call never answered) is fixed instead of refused; the
   * changes go to `onRepair`. A call still waiting at the end is then given an error result.
   * Default false.
   */
  repair?: boolean;
  /** Called with every change `repair` made (not called when nothing changed). */
  onRepair?: (changes: TranscriptRepair[]) => void;
}

/**
 * A converted transcript, checked as every transcript is where it enters: each call with
 * one result right after it (the newest assistant turn's calls may still wait for theirs, as
 * a run that stopped mid-step leaves them, and are kept as they are). A call id that a real
 * log reused after its earlier call was answered is renamed (`<id>_<index>`, its results
 * with it), so each result pairs with the latest open call of its id. Throws
 * LOUSHO_MESSAGE_INVALID naming the converted message's index and how to fix it;
 * `{ repair: true }` applies repairTranscript() instead.
 */
export function checkedTranscript(messages: Message[], options: ConvertOptions = {}): Message[] {
  if (options.repair === true) {
    // The newest turn's calls may still be under way: they are kept waiting, not given error results.
    const last = messages.at(-1);
    const pending = last?.role === 'assistant' && (last.toolCalls?.length ?? 0) > 0 ? 1 : 0;
    const repaired = repairTranscript(messages.slice(0, messages.length - pending));
    if (repaired.changes.length > 0) options.onRepair?.(repaired.changes);
    const out = [...repaired.messages, ...messages.slice(messages.length - pending)];
    const paired = renameReusedCallIds(out).messages;
    validateMessages(paired, { pendingCalls: true });
    return paired;
  }
  const paired = renameReusedCallIds(messages, { onlyAnswered: true }).messages;
  validateMessages(paired, { pendingCalls: true });
  return paired;
}
