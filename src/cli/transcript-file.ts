import { readFile } from 'node:fs/promises';
import { configError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { parseSession, SESSION_FORMAT } from '../sessions/serialize.js';

/** Reads a transcript: a JSON array of messages, `{ messages: [...] }`, or a session file. */
export async function readTranscript(path: string): Promise<Message[]> {
  const text = await readFile(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw configError(`${path} is not JSON. Give a JSON array of messages, { "messages": [...] }, or a session file.`);
  }
  if (typeof data === 'object' && data !== null && (data as { format?: unknown }).format === SESSION_FORMAT)
    return parseSession(text);
  const messages = Array.isArray(data) ? data : (data as { messages?: unknown } | null)?.messages;
  validateMessages(messages);
  return messages;
}
