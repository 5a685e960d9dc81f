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

function checkContent(content: unknown, index: number, allowImages: boolean): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) throw invalid(index, 'has content that is neither a string nor an array of parts');
  for (const part of content as unknown[]) {
    const type = (part as { type?: unknown } | null)?.type;
    if (type === 'text') {
      if (typeof (part as { text?: unknown }).text !== 'string')
        throw invalid(index, 'has a text part without a string text');
    } else if (type === 'image' && allowImages) {
      const image = (part as { image?: unknown }).image;
      if (typeof image !== 'string' && !(image instanceof URL) && !(image instanceof Uint8Array)) {
        throw invalid(index, 'has an image part whose image is not a URL, a string or bytes');
      }
    } else {
      throw invalid(
        index,
        `has a content part of type ${JSON.stringify(type)}; use 'text'${allowImages ? " or 'image'" : ''}`,
      );
    }
  }
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
      checkContent(m.content, index, true);
      return;
    case 'assistant':
      checkContent(m.content, index, false);
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
      checkContent(m.content, index, true);
  }
}

/** Validates every message of a transcript (see {@link validateMessage}). */
export function validateMessages(value: unknown, from = 0): asserts value is Message[] {
  if (!Array.isArray(value)) {
    throw new LoushoError('LOUSHO_MESSAGE_INVALID', 'messages must be an array of Message objects.');
  }
  for (let i = from; i < value.length; i++) validateMessage(value[i], i);
}

/**
 * The first broken call/result pair of a transcript, in words, or undefined when every
 * tool call has exactly one result after it and every result answers an earlier call.
 */
export function findPairingProblem(messages: readonly Message[]): string | undefined {
  const open = new Map<string, number>();
  const answered = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'assistant') {
      for (const call of m.toolCalls ?? []) open.set(call.id, i);
    } else if (m.role === 'tool') {
      if (!open.has(m.toolCallId))
        return `messages[${i}] is a result of call '${m.toolCallId}', which no earlier assistant message made`;
      if (answered.has(m.toolCallId)) return `messages[${i}] is a second result of call '${m.toolCallId}'`;
      answered.add(m.toolCallId);
    }
  }
  for (const [id, at] of open) if (!answered.has(id)) return `the call '${id}' of messages[${at}] has no result`;
  return undefined;
}
