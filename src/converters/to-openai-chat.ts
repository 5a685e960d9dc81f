import { textPartsOf } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { ContentPart, Message } from '../messages/types.js';
import { writeArguments } from './arguments-text.js';
import { namespaceOf } from './carried-parts.js';
import {
  OPENAI_CHAT_METADATA,
  type OpenAIChatImagePart,
  type OpenAIChatMessage,
  type OpenAIChatMetadata,
  type OpenAIChatTextPart,
} from './openai-chat-types.js';

function userParts(content: readonly ContentPart[]): (OpenAIChatTextPart | OpenAIChatImagePart)[] {
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : {
          type: 'image_url',
          image_url: { url: imageUrl(part), ...(part.detail === undefined ? {} : { detail: part.detail }) },
        },
  );
}

/** Tool messages carry text only: an image becomes a note saying it was left out. */
function toolContent(content: string | readonly ContentPart[]): string | OpenAIChatTextPart[] {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'text', text: '[image omitted: OpenAI chat tool messages carry text only]' },
  );
}

/**
 * Our messages as OpenAI Chat Completions messages, ready for `messages` of a request:
 * tool-call arguments as JSON text, `content: null` on a message that only calls tools,
 * images as `image_url` parts (data: URLs for bytes and base64). `metadata` is not sent,
 * except the `name` and developer role that {@link fromOpenAIChat} kept in `metadata.openai`.
 * Lossy: `toolName` and `isError` of tool results, images in tool results (a note instead),
 * an image's `width`/`height`/`mediaType` (see docs/converters.md).
 *
 * @example
 * const body = { model: 'gpt-4o-mini', messages: toOpenAIChat(transcript) };
 */
export function toOpenAIChat(messages: readonly Message[]): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    const meta = namespaceOf<OpenAIChatMetadata>(m, OPENAI_CHAT_METADATA);
    const name = typeof meta?.name === 'string' ? { name: meta.name } : {};
    switch (m.role) {
      case 'system':
        return { role: meta?.role === 'developer' ? 'developer' : 'system', content: m.content, ...name };
      case 'user':
        return { role: 'user', content: typeof m.content === 'string' ? m.content : userParts(m.content), ...name };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        const content =
          typeof m.content === 'string'
            ? m.content === '' && calls.length > 0
              ? null
              : m.content
            : textPartsOf(m.content).map((p): OpenAIChatTextPart => ({ type: 'text', text: p.text }));
        return {
          role: 'assistant',
          content,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function' as const,
                  function: { name: c.name, arguments: writeArguments(c.arguments, meta?.arguments?.[c.id]) },
                })),
              }),
          ...name,
        };
      }
      default:
        return { role: 'tool', tool_call_id: m.toolCallId, content: toolContent(m.content), ...name };
    }
  });
}
