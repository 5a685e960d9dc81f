import type { OpenAIChatAssistantMessage, OpenAIChatImagePart } from '../converters/openai-chat-types.js';
import { openAIChatMessages } from '../converters/to-openai-chat.js';
import type { Message } from '../messages/types.js';

/** A prompt-cache breakpoint on a content part, as OpenRouter passes it to Anthropic models. */
export interface ChatCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A text part of a message's content, with the cache breakpoint a provider may put on it. */
export interface ChatTextPart {
  type: 'text';
  text: string;
  cache_control?: ChatCacheControl;
}

/** A text or image part of a user message, with the cache breakpoint a provider may put on it. */
export type ChatPart = ChatTextPart | (OpenAIChatImagePart & { cache_control?: ChatCacheControl });

/**
 * A chat-completions message as a provider sends it: what {@link openAIChatMessages} writes
 * (assistant and tool content flattened to text), plus the wire extras, cache breakpoints and
 * the reasoning a server wants back.
 */
export type ChatMessage =
  | { role: 'system'; content: string | ChatTextPart[] }
  | { role: 'user'; content: string | ChatPart[] }
  | {
      role: 'assistant';
      content: string | ChatTextPart[] | null;
      tool_calls?: OpenAIChatAssistantMessage['tool_calls'];
      reasoning_content?: string;
      reasoning?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string | ChatTextPart[] };

/** Where an assistant message's reasoning goes back: to the provider of this name, in this field. */
export interface ReasoningReturn {
  /** The provider name the reasoning parts must carry (reasoning is never sent to another provider). */
  provider: string;
  /** The assistant message field the server reads it from. */
  field: 'reasoning_content' | 'reasoning';
}

/** The reasoning text this provider wrote into an assistant message's parts, joined; '' when none. */
function ownReasoning(content: Message['content'], provider: string): string {
  if (typeof content === 'string') return '';
  const texts: string[] = [];
  for (const part of content) if (part.type === 'reasoning' && part.provider === provider) texts.push(part.text);
  return texts.join('\n');
}

/** Text parts as one string, joined with newlines: several servers (DeepSeek, Mistral) take only a string there. */
function flat(content: string | readonly { text: string }[]): string {
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
}

/**
 * Our messages in the chat-completions format: the messages {@link openAIChatMessages}
 * writes (the converter `toOpenAIChat()` writes the same, with the names it kept), with the
 * text of assistant and tool messages as one string, which every compatible server takes.
 * `metadata` is not sent. With `reasoning`, an assistant message of the current turn (after
 * the last user message) that holds reasoning this provider wrote and made tool calls sends it
 * back in `reasoning.field`: DeepSeek's thinking mode refuses such a tool-call step without it,
 * and wants the reasoning of earlier turns left out (its thinking-mode docs); other reasoning
 * is not sent.
 */
export function toChatMessages(messages: readonly Message[], reasoning?: ReasoningReturn): ChatMessage[] {
  const chat = openAIChatMessages(messages, { names: false });
  let turnStart = 0;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === 'user') {
      turnStart = i;
      break;
    }
  return chat.map((c, i): ChatMessage => {
    const m = messages[i] as Message;
    if (c.role === 'tool') return { role: 'tool', tool_call_id: c.tool_call_id, content: flat(c.content) };
    if (c.role !== 'assistant') return c as ChatMessage;
    const calls = c.tool_calls ?? [];
    const thought =
      reasoning === undefined || calls.length === 0 || i < turnStart ? '' : ownReasoning(m.content, reasoning.provider);
    const text = c.content === null ? '' : flat(c.content);
    return {
      role: 'assistant',
      content: text === '' && calls.length > 0 ? null : text,
      ...(thought === '' || reasoning === undefined ? {} : { [reasoning.field]: thought }),
      ...(calls.length === 0 ? {} : { tool_calls: calls }),
    };
  });
}
