import { contentText } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { ContentPart, Message } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';

/** A chat-completions message, as sent (only what this library writes). */
export type ChatMessage =
  | { role: 'system'; content: string | ChatTextPart[] }
  | { role: 'user'; content: string | ChatPart[] }
  | {
      role: 'assistant';
      content: string | ChatTextPart[] | null;
      tool_calls?: ChatToolCall[];
      reasoning_content?: string;
      reasoning?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string | ChatTextPart[] };

/** A prompt-cache breakpoint on a content part, as OpenRouter passes it to Anthropic models. */
export interface ChatCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A text part of a message's content. */
export interface ChatTextPart {
  type: 'text';
  text: string;
  cache_control?: ChatCacheControl;
}

export type ChatPart =
  | ChatTextPart
  | {
      type: 'image_url';
      image_url: { url: string; detail?: 'low' | 'high' | 'auto' };
      cache_control?: ChatCacheControl;
    };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function userParts(content: ContentPart[]): ChatPart[] {
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : {
          type: 'image_url',
          image_url: { url: imageUrl(part), ...(part.detail === undefined ? {} : { detail: part.detail }) },
        },
  );
}

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

/**
 * Our messages in the chat-completions format. `metadata` is never sent; images in tool
 * results become a note. With `reasoning`, an assistant message that holds reasoning this
 * provider wrote and made tool calls sends it back in `reasoning.field` (DeepSeek's thinking
 * mode refuses a tool-call turn without it); other reasoning is not sent.
 */
export function toChatMessages(messages: readonly Message[], reasoning?: ReasoningReturn): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: typeof m.content === 'string' ? m.content : userParts(m.content) };
      case 'assistant': {
        const text = contentText(m.content);
        const calls = m.toolCalls ?? [];
        const thought =
          reasoning === undefined || calls.length === 0 ? '' : ownReasoning(m.content, reasoning.provider);
        return {
          role: 'assistant',
          content: text === '' && calls.length > 0 ? null : text,
          ...(thought === '' || reasoning === undefined ? {} : { [reasoning.field]: thought }),
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: argumentsText(c.arguments) },
                })),
              }),
        };
      }
      default: {
        const images = typeof m.content === 'string' ? 0 : m.content.filter((p) => p.type === 'image').length;
        const note = images === 0 ? '' : `\n[${images} image(s) omitted: tool results can only carry text here]`;
        return { role: 'tool', tool_call_id: m.toolCallId, content: contentText(m.content) + note };
      }
    }
  });
}
