import type { AssistantPart, Message } from '../messages/types.js';
import { ANTHROPIC_METADATA, type AnthropicMetadata } from './anthropic-types.js';
import { namespaceOf } from './carried-parts.js';
import { isRecord } from './invalid-input.js';
import { RESPONSES_METADATA, type ResponsesMetadata } from './openai-responses-types.js';

/** A Responses reasoning or compaction item, or an Anthropic compaction block, as our part; undefined for anything else. */
function providerPart(item: unknown): AssistantPart | undefined {
  if (!isRecord(item)) return undefined;
  const id = typeof item.id === 'string' ? { id: item.id } : {};
  const encrypted = typeof item.encrypted_content === 'string' ? { encrypted: item.encrypted_content } : {};
  if (item.type === 'compaction' && typeof item.content === 'string')
    return { type: 'compaction', text: item.content, provider: 'anthropic' };
  if (item.type === 'compaction') return { type: 'compaction', provider: 'openai', ...encrypted, ...id };
  if (item.type !== 'reasoning') return undefined;
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const text = summary
    .map((s) => (isRecord(s) && typeof s.text === 'string' ? s.text : ''))
    .filter((t) => t !== '')
    .join('\n');
  return { type: 'reasoning', text, provider: 'openai', ...encrypted, ...id };
}

const partsOf = (items: readonly unknown[] | undefined): AssistantPart[] =>
  (items ?? []).map(providerPart).filter((p): p is AssistantPart => p !== undefined);

function withParts(message: Message, parts: AssistantPart[]): Message {
  if (parts.length === 0 || message.role !== 'assistant') return message;
  const own =
    typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
  return { ...message, content: [...parts, ...own.filter((p) => p.type !== 'text' || p.text !== '')] };
}

/**
 * The transcript as the provider reads it, for counting: the reasoning and compaction items
 * of a Responses input and the compaction blocks of an Anthropic transcript, which the
 * converters carry in metadata (so that they go back unchanged), become reasoning and
 * compaction parts of the assistant message they belong to (or of one of their own), so
 * that estimateTokens() counts them as the provider bills them and leaves out what a
 * compaction superseded. The messages are not changed; a message with nothing to lift is
 * returned as it is.
 */
export function withProviderParts(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const responses = namespaceOf<ResponsesMetadata>(message, RESPONSES_METADATA);
    const anthropic = namespaceOf<AnthropicMetadata>(message, ANTHROPIC_METADATA);
    const before = partsOf(responses?.before);
    const blocks = partsOf(anthropic?.parts?.map((p) => p.part));
    if (before.length > 0 && message.role !== 'assistant') out.push({ role: 'assistant', content: before });
    out.push(withParts(message, [...(message.role === 'assistant' ? before : []), ...blocks]));
    const after = partsOf(responses?.after);
    if (after.length > 0) out.push({ role: 'assistant', content: after });
  }
  return out;
}
