import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';

/** The format tag of a saved transcript. */
export const SESSION_FORMAT = 'lousho-session-1';

/** JSON cannot hold bytes: images given as Uint8Array are written as base64 and read back as bytes. */
function sessionReplacer(_key: string, value: unknown): unknown {
  return value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value;
}

function sessionReviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
    return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
  }
  return value;
}

/** Whether `value` holds bytes anywhere (as JSON.stringify would walk it). */
function holdsBytes(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Uint8Array) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsBytes(item)) return true;
    return false;
  }
  for (const key in value)
    if (Object.hasOwn(value, key) && holdsBytes((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * `value` as JSON, bytes as base64. A replacer takes JSON.stringify off its fast path (and a
 * reviver JSON.parse), which every save and read of a session pays for: they are used only
 * when there are bytes, found by a walk that allocates nothing (or by their key in the text).
 */
export function toSessionJson(value: unknown): string {
  return holdsBytes(value) ? JSON.stringify(value, sessionReplacer) : JSON.stringify(value);
}

/** Reads what {@link toSessionJson} wrote, bytes back as Uint8Array. */
export function fromSessionJson(text: string): unknown {
  return text.includes('"$bytes"') ? JSON.parse(text, sessionReviver) : JSON.parse(text);
}

/** A transcript as the text every store saves. */
export function serializeSession(messages: readonly Message[]): string {
  return toSessionJson({ format: SESSION_FORMAT, messages });
}

/** Reads a saved transcript; throws a plain Error saying what is wrong when it is not one. */
export function parseSession(text: string): Message[] {
  const data = fromSessionJson(text) as { format?: unknown; messages?: unknown };
  if (data.format !== SESSION_FORMAT)
    throw new Error(`its format is ${JSON.stringify(data.format)}, not ${SESSION_FORMAT}`);
  validateMessages(data.messages, { pendingCalls: true });
  return data.messages;
}
