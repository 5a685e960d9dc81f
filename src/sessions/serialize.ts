import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/** The format tag of a saved transcript. */
export const SESSION_FORMAT = 'lousho-session-1';

/** JSON cannot hold bytes: images given as Uint8Array are written as base64 and read back as bytes. */
export function sessionReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value;
}

export function sessionReviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
    return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
  }
  return value;
}

/** A transcript as the text every store saves. */
export function serializeSession(messages: readonly Message[]): string {
  return JSON.stringify({ format: SESSION_FORMAT, messages }, sessionReplacer);
}

/** Reads a saved transcript; throws a plain Error saying what is wrong when it is not one. */
export function parseSession(text: string): Message[] {
  const data = JSON.parse(text, sessionReviver) as { format?: unknown; messages?: unknown };
  if (data.format !== SESSION_FORMAT)
    throw new Error(`its format is ${JSON.stringify(data.format)}, not ${SESSION_FORMAT}`);
  validateMessages(data.messages, { pendingCalls: true });
  return data.messages;
}
