import { readFile } from 'node:fs/promises';
import {
  detectFormat,
  FORMAT_NAMES,
  readFormat,
  type TranscriptFormat,
  writeFormat,
} from '../converters/transcript-format.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { parseSession, SESSION_FORMAT, serializeSession } from '../sessions/serialize.js';

/** Where a transcript's messages were in its file, and in what format, so it can be written back the same way. */
export interface TranscriptSource {
  format: TranscriptFormat;
  /** A JSON array, an object holding the array (a trajectory, a request body), JSON lines, or a session file. */
  container: 'array' | 'object' | 'jsonl' | 'session';
  /** The object's other fields (container 'object'), written back around the new messages. */
  object?: Record<string, unknown>;
  /** The object's key that holds the messages. */
  key?: string;
  /** Closing messages with a role no model reads (a log's 'exit'), left out and written back at the end. */
  leftOut: unknown[];
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** A file that holds no transcript: refused, and nothing is written from it. */
function unrecognized(path: string, what: string): LoushoError {
  return new LoushoError(
    'LOUSHO_TRANSCRIPT_UNRECOGNIZED',
    `${path} holds no messages: ${what}. lousho reads ${Object.values(FORMAT_NAMES).join(', ')} (a JSON array, { "messages": [...] }, JSON lines or a session file); name the format with --from when detection cannot tell.`,
    { details: { path } },
  );
}

function parse(path: string, text: string): { data: unknown; jsonl: boolean } {
  try {
    return { data: JSON.parse(text), jsonl: false };
  } catch {
    try {
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      return { data: lines.map((line) => JSON.parse(line) as unknown), jsonl: true };
    } catch {
      throw configError(
        `${path} is neither JSON nor JSON lines. Give an array of messages, { "messages": [...] }, one message per line, or a session file.`,
      );
    }
  }
}

/**
 * Reads a transcript file in any format the converters know (ours, OpenAI chat, OpenAI
 * Responses items, Anthropic, AI SDK): a JSON array, an object with a `messages` (or
 * `input`) array such as an agent's trajectory, JSON lines, or a session file.
 */
export async function readTranscriptFile(
  path: string,
  from?: TranscriptFormat,
): Promise<{ messages: Message[]; source: TranscriptSource }> {
  const text = await readFile(path, 'utf8');
  if (text.trim() === '') throw unrecognized(path, 'the file is empty');
  const { data, jsonl } = parse(path, text);
  const object =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (object?.format === SESSION_FORMAT) {
    return {
      messages: parseSession(JSON.stringify(object)),
      source: { format: 'lousho', container: 'session', leftOut: [] },
    };
  }
  const key = object === undefined ? undefined : ['messages', 'input'].find((k) => Array.isArray(object[k]));
  const list = object === undefined ? data : key === undefined ? undefined : object[key];
  if (!Array.isArray(list)) throw unrecognized(path, 'it is no list of messages, and no object holding one');
  if (list.length === 0) throw unrecognized(path, 'its list of messages is empty');
  // A log's closing entries that no model reads (mini-swe-agent's 'exit') are left out.
  const unread = (m: unknown) =>
    typeof (m as { role?: unknown })?.role === 'string' && !ROLES.has((m as { role: string }).role);
  let end = list.length;
  while (end > 0 && unread(list[end - 1])) end--;
  if (end === 0) end = list.length; // nothing but unknown roles: let the converter say what is wrong
  const kept = list.slice(0, end);
  const leftOut = list.slice(end);
  const format = from ?? detectFormat(kept, object?.system !== undefined);
  const messages = readFormat(format, kept, object?.system);
  // A read of nothing is never a success: the file is in a format this reader does not know.
  if (messages.length === 0)
    throw unrecognized(path, `read as ${FORMAT_NAMES[format]}, its ${kept.length} record(s) gave none`);
  validateMessages(messages, { pendingCalls: true }); // a saved run may end mid-step, its last calls unanswered
  const container = object !== undefined ? 'object' : jsonl ? 'jsonl' : 'array';
  return {
    messages,
    source: { format, container, ...(object === undefined ? {} : { object, key: key as string }), leftOut },
  };
}

/** Reads a transcript file (see {@link readTranscriptFile}) as our messages. */
export async function readTranscript(path: string): Promise<Message[]> {
  return (await readTranscriptFile(path)).messages;
}

/** What was read, in words: "OpenAI chat messages in an object's messages array (1 'exit' message left out ...)". */
export function describeSource(source: TranscriptSource): string {
  const where = {
    array: 'a JSON array',
    object: `the ${source.key} array of an object`,
    jsonl: 'JSON lines',
    session: 'a session file',
  }[source.container];
  const roles = [...new Set(source.leftOut.map((m) => `'${(m as { role: string }).role}'`))].join(', ');
  const left =
    source.leftOut.length === 0
      ? ''
      : ` (${source.leftOut.length} message(s) with role ${roles} left out: no model reads them; kept at the end when written)`;
  return `${FORMAT_NAMES[source.format]} in ${where}${left}`;
}

/** Our messages as the text of a transcript file shaped like the source, in its format or in `to`. */
export function writeTranscript(messages: readonly Message[], source: TranscriptSource, to?: TranscriptFormat): string {
  const format = to ?? source.format;
  if (source.container === 'session' && format === 'lousho') return serializeSession(messages);
  const written = writeFormat(format, messages);
  const list = [...(Array.isArray(written) ? written : written.messages), ...source.leftOut];
  const system = Array.isArray(written) ? undefined : written.system;
  if (source.container === 'jsonl' && system === undefined) return `${list.map((m) => JSON.stringify(m)).join('\n')}\n`;
  if (source.container !== 'object' && system === undefined) return `${JSON.stringify(list, null, 2)}\n`;
  const body: Record<string, unknown> = { ...source.object };
  // An Anthropic system prompt read from the object is now either written again or a system message.
  if (system !== undefined) body.system = system;
  else if (source.format === 'anthropic') delete body.system;
  body[source.key ?? 'messages'] = list;
  return `${JSON.stringify(body, null, 2)}\n`;
}
