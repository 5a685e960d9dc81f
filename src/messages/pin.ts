import type { Message } from './types.js';

/**
 * Returns a copy of `message` marked as pinned (`metadata.pinned: true`). The built-in
 * strategies never prune or summarize a pinned message.
 *
 * @example
 * const task = pinMessage({ role: 'user', content: 'Goal: compare the three vendors.' });
 */
export function pinMessage<M extends Message>(message: M): M {
  return { ...message, metadata: { ...message.metadata, pinned: true } };
}

/** True when the message was pinned with {@link pinMessage} (or has `metadata.pinned: true`). */
export function isPinned(message: Message): boolean {
  return message.metadata?.pinned === true;
}
