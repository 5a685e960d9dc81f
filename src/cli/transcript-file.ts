import { readFile } from 'node:fs/promises';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import {
  isMiniSweAgentTrajectory,
  miniSweAgentExtras,
  withMiniSweAgentUsage,
} from '../converters/from-mini-swe-agent.js';
import { isRecord } from '../converters/invalid-input.js';
import { LOG_FORMATS, type LogFormat, type LogReadOptions } from '../converters/log-formats.js';
import type { ReportedUsage } from '../converters/log-reading.js';
import {
  detectFormat,
  FORMAT_NAMES,
  readFormat,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
  writeFormat,
} from '../converters/transcript-format.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from '../messages/types.js';
import { validateMessages } from '../messages/validate.js';
import { fromSessionJson, SESSION_FORMAT, toSessionJson } from '../sessions/serialize.js';
import { jsonLines } from './json-spans.js';
import { type Pairing, spliceJson, spliceJsonLines } from './json-splice.js';
import { keepUnread, keptRecords } from './kept-records.js';
import { requestExtras } from './request-extras.js';
import { isSessionLog, readSessionLog } from './session-log-file.js';
import { unreadKind } from './unread-kinds.js';

/** Where a transcript's messages were in its file, and in what format, so it can be written back the same way. */
export interface TranscriptSource {
  /** The message format it is written in (for an agent log, the one `compact` writes instead). */
  format: TranscriptFormat;
  /** A JSON array, an object holding the array (a trajectory, a request body), JSON lines, or a session file. */
  container: 'array' | 'object' | 'jsonl' | 'session';
  /** The object's other fields (container 'object'), written back around the new messages. */
  object?: Record<string, unknown>;
  /** The object's key that holds the messages. */
  key?: string;
  /** Closing messages with a role no model reads (a log's 'exit'), left out and written back at the end. */
  leftOut: unknown[];
  /** What the object is, when it is known: 'a mini-swe-agent trajectory'. */
  within?: string;
  /** The agent log it was read from, which cannot be written back ('Claude Code session JSONL'): `format` is written instead. */
  log?: string;
  /**
   * The file's records the messages were read from (`leftOut` apart) and the messages as read:
   * writing back in `format` keeps every field of them that lousho does not change (see keptRecords()).
   */
  read?: { records: readonly unknown[]; messages: readonly Message[] };
  /** The file's text, whose spelling of every value the messages do not change is written back as it was (see spliceJson()). */
  text?: string;
}

/** A transcript file as read: its messages, where they were, and what else the file says about the run. */
export interface TranscriptFile {
  messages: Message[];
  source: TranscriptSource;
  /** The model the file names. */
  model?: string;
  /** Tool definitions the file holds (a request body's `tools`). */
  tools?: ToolDefinition[];
  /** The usage the provider reported for the last request the file records. */
  reported?: ReportedUsage;
}

/** How a file is read: the format when detection should not decide, the trajectory of a file of several, and repairTranscript() when asked. */
export interface ReadTranscriptOptions extends LogReadOptions {
  /** A message format or an agent log's id (see {@link READ_FORMATS}); detected when absent. */
  from?: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const SESSION_LOG = 'session-log';

/** Every format a file can be read in, by the name --from takes. */
export const READ_FORMATS: readonly string[] = [...TRANSCRIPT_FORMATS, ...LOG_FORMATS.map((f) => f.id), SESSION_LOG];

/**
 * A file that holds no transcript: refused in one line, and nothing is written from it. A
 * kind of file people often give is named with what to give instead; else `lousho formats`
 * is the next step.
 */
function unrecognized(path: string, what: string, file?: { text: string } | { data: unknown }): LoushoError {
  const kind = file === undefined ? undefined : unreadKind(file);
  const next = 'See `lousho formats` for what is read; --from names a format.';
  return new LoushoError(
    'LOUSHO_TRANSCRIPT_UNRECOGNIZED',
    kind === undefined ? `${path} holds no messages: ${what}. ${next}` : `${path} holds no messages: it is ${kind}.`,
    { details: { path } },
  );
}

function parse(path: string, text: string): { data: unknown; jsonl: boolean } {
  try {
    return { data: JSON.parse(text), jsonl: false };
  } catch {
    try {
      return { data: jsonLines(text).map((l) => JSON.parse(text.slice(l.start, l.end)) as unknown), jsonl: true };
    } catch {
      throw unrecognized(path, 'it is neither JSON nor JSON lines, nor a log read as text', { text });
    }
  }
}

/** A read of nothing is never a success: the file holds nothing a model saw, or is in a format this reader does not know. */
function checkedRead(path: string, file: TranscriptFile, what: string): TranscriptFile {
  if (file.messages.length === 0)
    throw new LoushoError(
      'LOUSHO_TRANSCRIPT_UNRECOGNIZED',
      `${path} holds no messages: read as ${what}, it gave none.`,
      {
        details: { path },
      },
    );
  validateMessages(file.messages, { pendingCalls: true }); // a saved run may end mid-step, its last calls unanswered
  return file;
}

/**
 * An agent log that cannot be written back, read: `compact` writes it in the log's `writeAs`
 * format. What the reader says of the read (the trajectory, a subagent's file) goes with the
 * log's name; `trajectory` is refused with LOUSHO_CONFIG_INVALID where the file has no such one.
 */
function readLog(path: string, log: LogFormat, data: unknown, options: LogReadOptions): TranscriptFile {
  const { trajectory } = options;
  if (trajectory !== undefined) {
    const count = log.trajectories?.(data) ?? 1;
    if (!Number.isInteger(trajectory) || trajectory < 1 || trajectory > count)
      throw new LoushoError(
        'LOUSHO_CONFIG_INVALID',
        log.trajectories === undefined
          ? `trajectory: ${path} holds one trajectory (${log.name}); drop --trajectory.`
          : `trajectory: ${path} holds ${count} trajectories; give a number from 1 to ${count}, not ${trajectory}.`,
        { details: { option: 'trajectory', path } },
      );
  }
  const { messages, detail, ...extras } = log.read(data, options);
  const name = detail === undefined ? log.name : `${log.name} (${detail})`;
  const source: TranscriptSource = { format: log.writeAs, container: 'array', leftOut: [], log: name };
  return checkedRead(path, { messages, source, ...extras }, name);
}

/**
 * Reads a transcript file in any format lousho knows: the message formats (ours, OpenAI
 * chat, OpenAI Responses items, Anthropic, AI SDK) as a JSON array, an object with a
 * `messages` (or `input`) array such as a trajectory or a request body, or JSON lines; the
 * agent logs of {@link LOG_FORMATS} (Claude Code, Codex CLI, opencode, OpenHands, SWE-agent,
 * tau-bench, LangChain); mini-swe-agent trajectories; session files and FileSessionStore logs.
 * Each is recognised by fields only it has; a file that matches none, or that gives no
 * messages, is refused with LOUSHO_TRANSCRIPT_UNRECOGNIZED listing what is read.
 */
export async function readTranscriptFile(
  path: string,
  fromOrOptions?: string | ReadTranscriptOptions,
): Promise<TranscriptFile> {
  const { from, ...convert } = typeof fromOrOptions === 'string' ? { from: fromOrOptions } : (fromOrOptions ?? {});
  const text = await readFile(path, 'utf8');
  if (text.trim() === '') throw unrecognized(path, 'the file is empty');
  const textLog = LOG_FORMATS.find((f) => f.input === 'text' && (from === undefined ? f.detect(text) : f.id === from));
  if (textLog !== undefined) return readLog(path, textLog, text, convert);
  if (from === SESSION_LOG || (from === undefined && isSessionLog(text))) {
    const source: TranscriptSource = {
      format: 'lousho',
      container: 'session',
      leftOut: [],
      log: 'a FileSessionStore log',
    };
    return checkedRead(path, { messages: readSessionLog(text), source }, 'a FileSessionStore log');
  }
  const { data, jsonl } = parse(path, text);
  const object = isRecord(data) ? data : undefined;
  if (object?.format === SESSION_FORMAT) {
    if (!Array.isArray(object.messages)) throw unrecognized(path, 'it is a session file without a list of messages');
    // Read as our messages are, so that --repair and its hint apply; bytes come back as bytes.
    const records = object.messages;
    const messages = readFormat('lousho', fromSessionJson(JSON.stringify(records)) as unknown[], undefined, convert);
    const read = { records, messages };
    return { messages, source: { format: 'lousho', container: 'session', leftOut: [], object, read, text } };
  }
  const log = LOG_FORMATS.find((f) => f.input !== 'text' && (from === undefined ? f.detect(data) : f.id === from));
  if (log !== undefined) return readLog(path, log, data, convert);
  if (convert.trajectory !== undefined)
    throw new LoushoError('LOUSHO_CONFIG_INVALID', `trajectory: ${path} holds one trajectory; drop --trajectory.`, {
      details: { option: 'trajectory', path },
    });
  const key = object === undefined ? undefined : ['messages', 'input'].find((k) => Array.isArray(object[k]));
  const list = object === undefined ? data : key === undefined ? undefined : object[key];
  if (!Array.isArray(list)) throw unrecognized(path, 'it is no list of messages, and no object holding one', { data });
  if (list.length === 0) throw unrecognized(path, 'its list of messages is empty');
  // A log's closing entries that no model reads (mini-swe-agent's 'exit') are left out.
  const unread = (m: unknown) =>
    typeof (m as { role?: unknown })?.role === 'string' && !ROLES.has((m as { role: string }).role);
  let end = list.length;
  while (end > 0 && unread(list[end - 1])) end--;
  if (end === 0) end = list.length; // nothing but unknown roles: let the converter say what is wrong
  const kept = list.slice(0, end);
  const leftOut = list.slice(end);
  const mini = isMiniSweAgentTrajectory(object);
  const detected = mini ? 'openai-chat' : detectFormat(kept, object?.system !== undefined);
  const format = (from as TranscriptFormat | undefined) ?? detected;
  if (format === undefined) throw unrecognized(path, 'its records have no role and no known item type', { data });
  const converted = readFormat(format, kept, object?.system, convert);
  const messages = mini ? withMiniSweAgentUsage(converted, object) : converted;
  const container = object !== undefined ? 'object' : jsonl ? 'jsonl' : 'array';
  const source: TranscriptSource = {
    format,
    container,
    ...(object === undefined ? {} : { object, key: key as string }),
    leftOut,
    read: { records: kept, messages },
    text,
    ...(mini ? { within: 'a mini-swe-agent trajectory' } : {}),
  };
  const extras = mini ? miniSweAgentExtras(object) : object === undefined ? {} : requestExtras(object);
  return checkedRead(path, { messages, source, ...extras }, FORMAT_NAMES[format]);
}

/** Reads a transcript file (see {@link readTranscriptFile}) as our messages. */
export async function readTranscript(path: string): Promise<Message[]> {
  return (await readTranscriptFile(path)).messages;
}

/** What was read, in words: "OpenAI chat messages in an object's messages array (1 'exit' message left out ...)". */
export function describeSource(source: TranscriptSource): string {
  const where = {
    array: 'a JSON array',
    object: `the ${source.key} array of ${source.within ?? 'an object'}`,
    jsonl: 'JSON lines',
    session: 'a session file',
  }[source.container];
  const roles = [...new Set(source.leftOut.map((m) => `'${(m as { role: string }).role}'`))].join(', ');
  const left =
    source.leftOut.length === 0
      ? ''
      : ` (${source.leftOut.length} message(s) with role ${roles} left out: no model reads them; kept at the end when written)`;
  if (source.log !== undefined) return `${source.log}, which lousho does not write back`;
  return `${FORMAT_NAMES[source.format]} in ${where}${left}`;
}

/** What writeFormat() gives, as a list of records and the system prompt written apart (Anthropic's). */
function listOf(written: ReturnType<typeof writeFormat>): { list: unknown[]; system: unknown } {
  return Array.isArray(written)
    ? { list: written, system: undefined }
    : { list: written.messages, system: written.system };
}

/**
 * Our messages as the text of a transcript file shaped like the source, in its format or in `to`.
 * Written in the format it was read in, every record and field of the file that the messages do
 * not change is kept as it was, the fields lousho does not read included (see keptRecords()),
 * and so is every other field of the object around them; each value that did not change is
 * the file's own text, byte for byte, and so is what follows the document (see spliceJson()).
 */
export function writeTranscript(messages: readonly Message[], source: TranscriptSource, to?: TranscriptFormat): string {
  const format = to ?? source.format;
  let { list, system } = listOf(writeFormat(format, messages));
  let from: Pairing = list.map(() => undefined);
  if (source.read !== undefined && format === source.format) {
    const before = listOf(writeFormat(format, source.read.messages));
    ({ records: list, from } = keptRecords(source.read.records, before.list, list));
    if (system !== undefined) system = keepUnread(source.object?.system, before.system, system);
  }
  const read = source.read?.records.length ?? 0;
  list = [...list, ...source.leftOut];
  from = [...from, ...source.leftOut.map((_, i) => read + i)];
  const session = source.container === 'session' && format === 'lousho';
  const key = session ? 'messages' : (source.key ?? 'messages');
  let body: unknown = list;
  if (session) body = { ...source.object, format: SESSION_FORMAT, messages: list };
  else if (source.container === 'object' || system !== undefined) {
    const object: Record<string, unknown> = { ...source.object };
    // An Anthropic system prompt read from the object is now either written again or a system message.
    if (system !== undefined) object.system = system;
    else if (source.format === 'anthropic') delete object.system;
    object[key] = list;
    body = object;
  }
  // As plain JSON: what the file's text is compared with (a session's bytes as { $bytes }).
  const plain = JSON.parse(session ? toSessionJson(body) : JSON.stringify(body)) as unknown;
  const { text } = source;
  if (text === undefined) return session ? JSON.stringify(plain) : `${JSON.stringify(plain, null, 2)}\n`;
  if (source.container !== 'jsonl') return spliceJson(text, plain, body === list ? { from } : { key, from });
  return Array.isArray(plain) ? spliceJsonLines(text, plain, from) : `${JSON.stringify(plain, null, 2)}\n`;
}
