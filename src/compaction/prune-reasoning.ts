import { isPinned } from '../messages/pin.js';
import type { AssistantPart, Message, ReasoningPart } from '../messages/types.js';
import { protectedTailStart } from './sizes.js';
import { type CompactionStrategy, messageCounter } from './types.js';

/** The marker that stands for plain reasoning text an older turn no longer needs. */
export function reasoningMarker(chars: number): string {
  return `[reasoning pruned: ${chars} chars]`;
}

const MARKER = /^\[reasoning pruned: \d+ chars\]$/;

/** True for reasoning the provider checks and only takes back as it was (a signature, encrypted content). */
const isSealed = (part: ReasoningPart) => part.signature !== undefined || part.encrypted !== undefined;

/** The index of the first message of the newest turn: the one after the last user message (0 when there is none). */
function newestTurnStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i + 1;
  return 0;
}

/** An assistant message's parts with their reasoning pruned; the same array when nothing changed. */
function prunedParts(content: readonly AssistantPart[]): readonly AssistantPart[] {
  let changed = false;
  const out: AssistantPart[] = [];
  for (const part of content) {
    if (part.type === 'reasoning' && isSealed(part)) {
      changed = true; // dropped: a provider takes an older turn without it, never with it altered
    } else if (part.type === 'reasoning' && part.text !== '' && !MARKER.test(part.text)) {
      changed = true;
      out.push({ ...part, text: reasoningMarker(part.text.length) });
    } else {
      out.push(part);
    }
  }
  return changed ? out : content;
}

/**
 * The transcript with the reasoning before `end` pruned, in a form each provider takes back:
 * reasoning a provider sealed (an Anthropic thinking block's signature, a redacted_thinking
 * block, an OpenAI reasoning item's encrypted content) is dropped, since it may only come
 * back unchanged and only the current tool-using turn needs it; plain reasoning text
 * (DeepSeek's or OpenRouter's, which DeepSeek wants present on every tool-call turn) becomes
 * a short marker. `end` defaults to the newest turn's start (the message after the last user
 * message), which is never touched, nor is a pinned message. Returns the same array when
 * nothing changed, and how many assistant messages changed.
 */
export function pruneOldReasoning(
  messages: readonly Message[],
  end = newestTurnStart(messages),
): { messages: readonly Message[]; changed: number } {
  const stop = Math.min(end, newestTurnStart(messages));
  let out: Message[] | undefined;
  let changed = 0;
  for (let i = 0; i < stop; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'assistant' || typeof m.content === 'string' || isPinned(m)) continue;
    const parts = prunedParts(m.content);
    if (parts === m.content) continue;
    out ??= messages.slice();
    out[i] = { ...m, content: parts.length === 0 ? '' : [...parts] };
    changed++;
  }
  return { messages: out ?? messages, changed };
}

/**
 * `strategy`, then the reasoning of the turns before the newest pruned from its result (see
 * {@link pruneOldReasoning}), outside the protected tail, so a compaction also frees what
 * old reasoning takes. Runs only when the strategy runs: it rewrites nothing between
 * compactions, so the prompt cache is broken no more often than before.
 */
export function pruneReasoningLayer(strategy: CompactionStrategy): CompactionStrategy {
  return {
    ...strategy,
    async compact(input) {
      const result = await strategy.compact(input);
      const tail = protectedTailStart(result.messages, input.protectedTokens, messageCounter(input));
      const pruned = pruneOldReasoning(result.messages, tail);
      if (pruned.changed === 0) return result;
      const messages = pruned.messages as Message[];
      return { ...result, messages, tokensAfter: input.estimateTokens(messages) };
    },
  };
}
