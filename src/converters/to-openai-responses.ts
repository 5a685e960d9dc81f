import { contentText } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { ContentPart, Message } from '../messages/types.js';
import { writeArguments } from './arguments-text.js';
import { mergeCarried, namespaceOf } from './carried-parts.js';
import {
  RESPONSES_METADATA,
  type ResponsesInputImage,
  type ResponsesInputItem,
  type ResponsesInputText,
  type ResponsesMetadata,
  type ResponsesOtherPart,
} from './openai-responses-types.js';

type Part = ResponsesInputText | ResponsesInputImage | ResponsesOtherPart;

function parts(
  content: string | readonly ContentPart[],
  meta: Partial<ResponsesMetadata> | undefined,
): string | Part[] {
  if (typeof content === 'string' && (meta?.parts ?? []).length === 0) return content;
  const list =
    typeof content === 'string' ? (content === '' ? [] : [{ type: 'text' as const, text: content }]) : content;
  const ours = list.map(
    (part): Part =>
      part.type === 'text'
        ? { type: 'input_text', text: part.text }
        : { type: 'input_image', image_url: imageUrl(part), detail: part.detail ?? 'auto' },
  );
  return mergeCarried(ours, meta?.parts) as Part[];
}

function ids(meta: Partial<ResponsesMetadata> | undefined) {
  return {
    ...(meta?.id === undefined ? {} : { id: meta.id }),
    ...(meta?.status === undefined ? {} : { status: meta.status }),
  };
}

/** True when a function_call written next would be read as part of the item before it. */
function joinsPrevious(previous: ResponsesInputItem | undefined): boolean {
  return (
    previous?.type === 'function_call' ||
    (previous?.type === 'message' && (previous as { role?: unknown }).role === 'assistant')
  );
}

function assistantItems(
  m: Extract<Message, { role: 'assistant' }>,
  meta: Partial<ResponsesMetadata> | undefined,
  previous: ResponsesInputItem | undefined,
) {
  const items: ResponsesInputItem[] = [];
  const calls = m.toolCalls ?? [];
  const text = contentText(m.content);
  const phase = meta?.phase === undefined ? {} : { phase: meta.phase };
  if (meta?.id !== undefined) {
    const texts = typeof m.content === 'string' ? (m.content === '' ? [] : [m.content]) : m.content.map((p) => p.text);
    const content = texts.map((t) => ({ type: 'output_text' as const, text: t, annotations: [] }));
    items.push({ type: 'message', role: 'assistant', ...ids(meta), id: meta.id, content, ...phase });
  } else if (text !== '' || calls.length === 0 || meta?.phase !== undefined || joinsPrevious(previous)) {
    items.push({ type: 'message', role: 'assistant', content: text, ...phase });
  }
  for (const call of calls) {
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: writeArguments(call.arguments, meta?.calls?.[call.id]?.arguments),
      ...ids(meta?.calls?.[call.id]),
    });
  }
  return items;
}

/**
 * Our messages as OpenAI Responses API input items: messages as `message` items (images
 * as `input_image`), tool calls as `function_call` items after the assistant's text, tool
 * results as `function_call_output` items. What {@link fromOpenAIResponses} kept in
 * `metadata.openaiResponses` (reasoning and other items, item ids, input_file parts) goes
 * back where it was. Lossy: `toolName` and `isError` of tool results; an assistant
 * message's text parts become one string unless it kept its item id (see docs/converters.md).
 *
 * @example
 * const response = await openai.responses.create({ model: 'gpt-4o-mini', input: toOpenAIResponses(transcript) });
 */
export function toOpenAIResponses(messages: readonly Message[]): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  for (const m of messages) {
    const meta = namespaceOf<ResponsesMetadata>(m, RESPONSES_METADATA);
    out.push(...((meta?.before ?? []) as ResponsesInputItem[]));
    switch (m.role) {
      case 'system':
        out.push({ type: 'message', role: meta?.role ?? 'system', content: m.content, ...ids(meta) });
        break;
      case 'user':
        out.push({ type: 'message', role: 'user', content: parts(m.content, meta), ...ids(meta) });
        break;
      case 'assistant':
        out.push(...assistantItems(m, meta, out[out.length - 1]));
        break;
      default:
        out.push({ type: 'function_call_output', call_id: m.toolCallId, output: parts(m.content, meta), ...ids(meta) });
    }
    out.push(...((meta?.after ?? []) as ResponsesInputItem[]));
  }
  return out;
}
