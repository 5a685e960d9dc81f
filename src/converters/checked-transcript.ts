import { repairTranscript, type TranscriptRepair } from '../messages/repair.js';
import { renameReusedCallIds } from '../messages/reused-call-ids.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/** Options every `from...()` converter takes. */
export interface ConvertOptions {
  /**
   * Apply repairTranscript() to what was read, so a transcript whose calls and results do
   * not pair (a result logged away from its call, an orphan result, a call never answered)
   * is fixed instead of refused, with nothing it holds dropped; the changes go to `onRepair`.
   * The newest turn's calls are left waiting for their results. Default false.
   */
  repair?: boolean;
  /** Called with every change `repair` made (not called when nothing changed). */
  onRepair?: (changes: TranscriptRepair[]) => void;
  /**
   * The sentence that ends the error for calls and results that do not pair, saying how to
   * repair them (default: it names repairTranscript()). A tool that wraps the converters
   * names its own way, as `lousho` names its --repair flag.
   */
  repairHint?: string;
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
  const check = { pendingCalls: true, ...(options.repairHint === undefined ? {} : { repairHint: options.repairHint }) };
  if (options.repair === true) {
    const repaired = repairTranscript(messages, { pendingCalls: true });
    if (repaired.changes.length > 0) options.onRepair?.(repaired.changes);
    validateMessages(repaired.messages, check);
    return repaired.messages;
  }
  const paired = renameReusedCallIds(messages, { onlyAnswered: true }).messages;
  validateMessages(paired, check);
  return paired;
}
