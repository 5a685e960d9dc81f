import type { Message } from '../messages/types.js';
import { fileLogEntries } from '../sessions/file-log-lines.js';
import { decodeEntry } from '../sessions/records.js';
import { SessionState } from '../sessions/session-state.js';

/**
 * True for the log FileSessionStore writes (`<id>.jsonl`): every line a JSON list of records
 * this library writes (`messages`, `turn.start`, `checkpoint`, ...).
 */
export function isSessionLog(text: string): boolean {
  const lines = fileLogEntries(text).filter((line) => line.trim() !== '');
  if (lines.length === 0) return false;
  return lines.every((line) => {
    try {
      decodeEntry(line);
      return true;
    } catch {
      return false;
    }
  });
}

/** A session log's transcript: its records replayed in order, as the session itself reads them. */
export function readSessionLog(text: string): Message[] {
  const state = new SessionState();
  for (const line of fileLogEntries(text)) {
    if (line.trim() === '') continue;
    for (const record of decodeEntry(line)) state.apply(record);
  }
  return state.messages;
}
