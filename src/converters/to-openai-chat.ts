import { textPartsOf } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { AssistantMessage, ContentPart, Message } from '../messages/types.js';
import { writeArguments } from './arguments-text.js';
import { namespaceOf } from './carried-parts.js';
import {
  OPENAI_CHAT_METADATA,
  type OpenAIChatAssistantMessage,
  type OpenAIChatImagePart,
  type OpenAIChatMessage,
  type OpenAIChatMetadata,
  type OpenAIChatTextPart,
} from './openai-chat-types.js';

/** What a tool message carries in place of an image: tool messages carry text only. */
const OMITTED_TOOL_IMAGE = '[image omitted: OpenAI chat tool messages carry text only]';

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
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'text', text: OMITTED_TOOL_IMAGE },
  );
}

/**
 * An assistant message's text: as it was (a string, or its text parts); null when it has none
 * and calls tools (OpenAI rejects an empty parts array, and null is how it writes such a message).
 */
function assistantContent(content: AssistantMessage['content'], calls: number): OpenAIChatAssistantMessage['content'] {
  const parts =
    typeof content === 'string'
      ? content
      : textPartsOf(content).map((p): OpenAIChatTextPart => ({ type: 'text', text: p.text }));
  return parts.length === 0 && calls > 0 ? null : parts;
}

/**
 * The one conversion of our messages to Chat Completions messages, for {@link toOpenAIChat}
 * and the chat-completions provider alike. With `names`, the participant `name` and the
 * developer role kept in `metadata.openai` are written back (the converter does; the provider
 * does not, since OpenAI rejects a `name` on tool messages and other servers the developer
 * role). Tool-call arguments are written as the text they were read from while it still says
 * the same, so the same call sends the same bytes on either path.
 */
export function openAIChatMessages(messages: readonly Message[], options: { names: boolean }): OpenAIChatMessage[] {
  return messages.map((m): OpenAIChatMessage => {
    const meta = namespaceOf<OpenAIChatMetadata>(m, OPENAI_CHAT_METADATA);
    const name = options.names && typeof meta?.name === 'string' ? { name: meta.name } : {};
    switch (m.role) {
      case 'system':
        return {
          role: options.names && meta?.role === 'developer' ? 'developer' : 'system',
          content: m.content,
          ...name,
        };
      case 'user':
        return { role: 'user', content: typeof m.content === 'string' ? m.content : userParts(m.content), ...name };
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        return {
          role: 'assistant',
          content: assistantContent(m.content, calls.length),
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

/**
 * Our messages as OpenAI Chat Completions messages, ready for `messages` of a request:
 * tool-call arguments as JSON text, `content: null` on a message that only calls tools,
 * images as `image_url` parts (data: URLs for bytes and base64). `metadata` is not sent,
 * except the `name` and developer role that {@link fromOpenAIChat} kept in `metadata.openai`.
 * Lossy: `toolName` and `isError` of tool results, images in tool results (a note instead),
 * reasoning, an image's `width`/`height`/`mediaType` (see docs/converters.md). The
 * OpenAI-compatible providers send the same messages (see `providers/openai-messages.ts`).
 *
 * @example
 * const body = { model: 'gpt-4o-mini', messages: toOpenAIChat(transcript) };
 */
export function toOpenAIChat(messages: readonly Message[]): OpenAIChatMessage[] {
  return openAIChatMessages(messages, { names: true });
}
