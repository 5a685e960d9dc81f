import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/**
 * A converted transcript, checked as every transcript is where it enters: each call with
 * one result right after it (the last step's calls may still wait for theirs, as a run that
 * is under way leaves them). Throws LOUSHO_MESSAGE_INVALID naming the converted message's
 * index and how to fix it; repairTranscript() fixes what can be fixed safely.
 */
export function checkedTranscript(messages: Message[]): Message[] {
  validateMessages(messages, { pendingCalls: true });
  return messages;
}
