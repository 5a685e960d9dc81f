import { LoushoError } from '../errors/lousho-error.js';
import type { Message } from './types.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function invalid(index: number, problem: string): LoushoError {
  return new LoushoError(
    'LOUSHO_MESSAGE_INVALID',
    `messages[${index}] ${problem}. A message is { role: 'system' | 'user' | 'assistant' | 'tool', content, ... }; ` +
      `tool results also need toolCallId, and assistant toolCalls are { id, name, arguments }.`,
    { details: { index } },
  );
}

/** The part types each role's content may hold besides text. */
const OTHER_PARTS = { user: ['image'], tool: ['image'], assistant: ['reasoning', 'compaction'] } as const;

function checkPart(part: unknown, index: number, role: keyof typeof OTHER_PARTS): void {
  const p = part as { type?: unknown; text?: unknown; image?: unknown } | null;
  const type = p?.type;
  const allowed: readonly string[] = OTHER_PARTS[role];
  if (type === 'text' || (type === 'reasoning' && allowed.includes(type))) {
    if (typeof p?.text !== 'string') throw invalid(index, `has a ${type} part without a string text`);
  } else if (type === 'image' && allowed.includes(type)) {
    const image = p?.image;
    if (typeof image !== 'string' && !(image instanceof URL) && !(image instanceof Uint8Array)) {
      throw invalid(index, 'has an image part whose image is not a URL, a string or bytes');
    }
  } else if (type === 'compaction' && allowed.includes(type)) {
    if (p?.text !== undefined && typeof p.text !== 'string')
      throw invalid(index, 'has a compaction part whose text is not a string');
  } else {
    const other = allowed.map((t) => ` or '${t}'`).join('');
    throw invalid(index, `has a content part of type ${JSON.stringify(type)}; use 'text'${other}`);
  }
}

function checkContent(content: unknown, index: number, role: keyof typeof OTHER_PARTS): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) throw invalid(index, 'has content that is neither a string nor an array of parts');
  for (const part of content as unknown[]) checkPart(part, index, role);
}

/** Throws LOUSHO_MESSAGE_INVALID, naming the index and the field, when one message is malformed. */
export function validateMessage(value: unknown, index: number): asserts value is Message {
  if (typeof value !== 'object' || value === null) throw invalid(index, 'is not an object');
  const m = value as Record<string, unknown>;
  if (typeof m.role !== 'string' || !ROLES.has(m.role)) throw invalid(index, `has role ${JSON.stringify(m.role)}`);
  if (m.metadata !== undefined && (typeof m.metadata !== 'object' || m.metadata === null)) {
    throw invalid(index, 'has metadata that is not an object');
  }
  switch (m.role) {
    case 'system':
      if (typeof m.content !== 'string') throw invalid(index, '(system) has content that is not a string');
      return;
    case 'user':
      checkContent(m.content, index, 'user');
      return;
    case 'assistant':
      checkContent(m.content, index, 'assistant');
      if (m.toolCalls === undefined) return;
      if (!Array.isArray(m.toolCalls)) throw invalid(index, 'has toolCalls that is not an array');
      for (const call of m.toolCalls as unknown[]) {
        const c = call as { id?: unknown; name?: unknown } | null;
        if (typeof c?.id !== 'string' || c.id === '' || typeof c.name !== 'string' || c.name === '') {
          throw invalid(index, 'has a tool call without a string id and name');
        }
      }
      return;
    default:
      if (typeof m.toolCallId !== 'string' || m.toolCallId === '') throw invalid(index, '(tool) has no toolCallId');
      checkContent(m.content, index, 'tool');
  }
}

/** Options of {@link validateMessages}. */
export interface ValidateMessagesOptions {
  /**
   * Allow the calls of the last assistant message to have no result yet: a transcript
   * paused before its tools ran (a turn awaiting approval, a checkpoint mid-step). Default false.
   */
  pendingCalls?: boolean;
  /**
   * The sentence that ends an error for calls and results that do not pair, saying how to
   * repair them. Default: it names repairTranscript(); the command line names its --repair.
   */
  repairHint?: string;
}

/** A broken call/result pair: where, what, and how to fix it. */
export interface PairingProblem {
  index: number;
  problem: string;
  fix: string;
}

const REPAIR_HINT = 'repairTranscript() fixes this safely and reports what it changed.';

/**
 * The first broken call/result pair of a transcript, or undefined when every tool call
 * has exactly one result after it, every result answers an earlier call, and no two calls
 * share an id. With `pendingCalls`, the last assistant message's calls may be unanswered.
 */
export function pairingProblem(
  messages: readonly Message[],
  options: ValidateMessagesOptions = {},
): PairingProblem | undefined {
  const repair = options.repairHint ?? REPAIR_HINT;
  const madeAt = new Map<string, number>();
  const answered = new Set<string>();
  /** The calls of the assistant message whose results may follow now, and where it is. */
  let open: { at: number; ids: string[] } | undefined;
  const unanswered = (before: number): PairingProblem | undefined => {
    const id = open?.ids.find((i) => !answered.has(i));
    if (open === undefined || id === undefined) return undefined;
    return {
      index: open.at,
      problem: `makes the call '${id}', which has no result${before < messages.length ? ` before messages[${before}]` : ''}`,
      fix: `add a tool message { role: 'tool', toolCallId: '${id}', content } right after the calls' other results (an error result if the call never ran). ${repair}`,
    };
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool') {
      const at = madeAt.get(m.toolCallId);
      if (at === undefined) {
        return {
          index: i,
          problem: `is a result of call '${m.toolCallId}', which no earlier assistant message made`,
          fix: `put the assistant message with that tool call before it, or remove the result. ${repair}`,
        };
      }
      if (answered.has(m.toolCallId)) {
        return {
          index: i,
          problem: `is a second result of call '${m.toolCallId}'`,
          fix: `keep one result per call. ${repair}`,
        };
      }
      if (open?.at !== at) {
        return {
          index: i,
          problem: `is a result of call '${m.toolCallId}' of messages[${at}], but other messages stand between them`,
          fix: `results must follow their assistant message directly (every provider requires it). ${repair}`,
        };
      }
      answered.add(m.toolCallId);
      continue;
    }
    const missing = unanswered(i);
    if (missing !== undefined) return missing;
    open = undefined;
    if (m.role !== 'assistant' || m.toolCalls === undefined || m.toolCalls.length === 0) continue;
    for (const call of m.toolCalls) {
      const earlier = madeAt.get(call.id);
      if (earlier !== undefined) {
        return {
          index: i,
          problem: `makes a tool call with id '${call.id}', which ${earlier === i ? 'another call of the same message' : `messages[${earlier}]`} already used`,
          fix: `tool-call ids must be unique in a transcript: give each call its own id. ${repair}`,
        };
      }
      madeAt.set(call.id, i);
    }
    open = { at: i, ids: m.toolCalls.map((c) => c.id) };
  }
  const pendingAllowed = options.pendingCalls === true;
  return pendingAllowed ? undefined : unanswered(messages.length);
}

/**
 * The first broken call/result pair of a transcript, in words, or undefined when every
 * tool call has exactly one result after it and every result answers an earlier call.
 */
export function findPairingProblem(
  messages: readonly Message[],
  options: ValidateMessagesOptions = {},
): string | undefined {
  const found = pairingProblem(messages, options);
  return found === undefined ? undefined : `messages[${found.index}] ${found.problem}`;
}

/**
 * Validates the shape of every message of a list (see {@link validateMessage}), not how
 * calls and results pair: for a part of a transcript, such as the messages one step added.
 */
export function validateMessageShapes(value: unknown): asserts value is Message[] {
  if (!Array.isArray(value)) {
    throw new LoushoError('LOUSHO_MESSAGE_INVALID', 'messages must be an array of Message objects.');
  }
  for (let i = 0; i < value.length; i++) validateMessage(value[i], i);
}

/**
 * Validates a transcript where it enters the library: every message's shape (role,
 * content, tool calls and results as the Message types describe them) and every tool call with exactly one result after it. Throws
 * LOUSHO_MESSAGE_INVALID naming the index and how to fix it; nothing reaches a provider
 * that would answer with an opaque 400.
 */
export function validateMessages(value: unknown, options: ValidateMessagesOptions = {}): asserts value is Message[] {
  validateMessageShapes(value);
  const found = pairingProblem(value, options);
  if (found !== undefined) {
    throw new LoushoError('LOUSHO_MESSAGE_INVALID', `messages[${found.index}] ${found.problem}: ${found.fix}`, {
      details: { index: found.index },
    });
  }
}
