import type { Message } from '../messages/types.js';

/*
 * What providers bill beyond the text a request shows, and what they do not bill although
 * the request carries it. Each figure says where it comes from.
 */

/**
 * The system prompt Anthropic adds to every request that has tools, with tool_choice auto
 * or none (Anthropic's "tool use system prompt" table: 346 tokens for the Claude 4 family
 * and Claude 3.7 Sonnet; 313 with tool_choice any or tool, counted here as the larger).
 */
export const ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS = 346;

/** The same prompt of the older Claude models, from the same table (tool_choice auto). */
const OLDER_CLAUDE_TOOL_PROMPTS: readonly [RegExp, number][] = [
  [/claude-3-opus/i, 530],
  [/claude-3-sonnet/i, 159],
  [/claude-3-5-sonnet|claude-3\.5-sonnet/i, 294],
  [/claude-3-haiku|claude-3-5-haiku|claude-3\.5-haiku/i, 264],
];

/** The tool-use system prompt a model's provider adds when a request has tools (Anthropic's models only). */
export function toolUseSystemPromptTokens(model: string, anthropic: boolean): number {
  if (!anthropic) return 0;
  for (const [pattern, tokens] of OLDER_CLAUDE_TOOL_PROMPTS) if (pattern.test(model)) return tokens;
  return ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS;
}

/**
 * A provider compaction whose content is encrypted (an OpenAI Responses compaction item):
 * the ciphertext's length says nothing of what is billed (the item of vercel/ai's
 * openai-compaction recording is 41,000 characters long). Fitted to the one bill we know of,
 * not measured here: a request of one such item and a 5-word user message billed 298 input
 * tokens (reported in the issue that asked for this), of which the message and the
 * request's framing are 17. No rule for it is published; replace it when one is.
 */
export const OPAQUE_COMPACTION_TOKENS = 280;

/**
 * Reasoning that is only encrypted (an Anthropic redacted_thinking block, an OpenAI
 * reasoning item without a summary) is billed as the reasoning it holds, which cannot be
 * read: it is counted as its decoded bytes at about four bytes a token, as text is.
 */
export function opaqueReasoningTokens(encrypted: string): number {
  return Math.ceil((encrypted.length * 3) / 4 / 4);
}

/** Whether a message holds a provider's compaction (an Anthropic compaction block, a Responses compaction item). */
export function holdsProviderCompaction(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    typeof message.content !== 'string' &&
    message.content.some((part) => part.type === 'compaction')
  );
}

/**
 * The index of the newest message that holds a provider's compaction, or -1. The provider
 * reads nothing before it but the system prompt: Anthropic drops every block before a
 * compaction block, OpenAI every item before a compaction item.
 */
export function supersedingIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (holdsProviderCompaction(messages[i] as Message)) return i;
  return -1;
}

/** Whether the provider still reads message `i` of a transcript whose newest compaction is at `from`. */
export function isBilled(message: Message, i: number, from: number): boolean {
  return i >= from || message.role === 'system';
}
