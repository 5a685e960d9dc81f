import type { ModelRequest } from '../contracts/model-request.js';
import { contentText } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { ContentPart, Message } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import { isStrictSchema } from './strict-schema.js';

/** A chat-completions message, as sent (only what this library writes). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ChatPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };

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

/** Our messages in the chat-completions format. `metadata` is never sent; images in tool results become a note. */
export function toChatMessages(messages: readonly Message[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: typeof m.content === 'string' ? m.content : userParts(m.content) };
      case 'assistant': {
        const text = contentText(m.content);
        const calls = m.toolCalls ?? [];
        return {
          role: 'assistant',
          content: text === '' && calls.length > 0 ? null : text,
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

/** The request body of one chat-completions call (without `stream`). */
export function chatRequestBody(
  request: ModelRequest,
  modelId: string,
  maxTokensField: 'max_tokens' | 'max_completion_tokens',
) {
  return {
    model: modelId,
    messages: toChatMessages(request.messages),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((t) => ({
            type: 'function' as const,
            function: {
              name: t.name,
              ...(t.description === undefined ? {} : { description: t.description }),
              parameters: t.parameters,
            },
          })),
        }),
    ...(request.maxOutputTokens === undefined ? {} : { [maxTokensField]: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.outputSchema === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: 'output', schema: request.outputSchema, strict: isStrictSchema(request.outputSchema) },
          },
        }),
  };
}
