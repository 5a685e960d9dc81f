import { contentText } from '../messages/content.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantMessage, ContentPart, Message, TextPart } from '../messages/types.js';
import { rawArguments } from './arguments-text.js';
import { type CarriedPart, metadataWith, splitCarried } from './carried-parts.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { checkArray, invalidInput, isRecord, requireString } from './invalid-input.js';
import { RESPONSES_METADATA, type ResponsesMetadata } from './openai-responses-types.js';

const WHERE = 'fromOpenAIResponses()';
const STATUSES = new Set(['in_progress', 'completed', 'incomplete']);

type Draft = Message & { metadata?: { [RESPONSES_METADATA]?: ResponsesMetadata } };

function isOurPart(part: unknown): part is Record<string, unknown> {
  return isRecord(part) && ['input_text', 'output_text', 'refusal', 'input_image'].includes(part.type as string);
}

/** Content parts: text and images become ours, input_file / input_audio are carried. */
function readParts(parts: unknown[], path: string, i: number): { content: ContentPart[]; carried: CarriedPart[] } {
  const { kept, carried } = splitCarried(parts, isOurPart);
  const content = kept.map((part): ContentPart => {
    if (part.type === 'refusal' && typeof part.refusal === 'string') return { type: 'text', text: part.refusal };
    if (part.type !== 'input_image') {
      if (typeof part.text !== 'string')
        throw invalidInput(WHERE, path, i, 'has a text part without text', 'Give text.');
      return { type: 'text', text: part.text };
    }
    if (typeof part.image_url !== 'string' || part.image_url === '') {
      throw invalidInput(
        WHERE,
        path,
        i,
        'has an input_image without image_url',
        'Give the image as a URL or data: URL.',
      );
    }
    const d = part.detail;
    return { type: 'image', image: part.image_url, ...(d === 'low' || d === 'high' ? { detail: d } : {}) };
  });
  return { content, carried };
}

function ids(item: Record<string, unknown>): Pick<ResponsesMetadata, 'id' | 'status' | 'phase'> {
  return {
    ...(item.phase === 'commentary' || item.phase === 'final_answer' ? { phase: item.phase } : {}),
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    ...(typeof item.id === 'string' && typeof item.status === 'string' && STATUSES.has(item.status)
      ? { status: item.status as NonNullable<ResponsesMetadata['status']> }
      : {}),
  };
}

function messageItem(item: Record<string, unknown>, i: number): Draft {
  const path = `input[${i}]`;
  const role = item.role;
  let text: string | undefined;
  let parts: { content: ContentPart[]; carried: CarriedPart[] } | undefined;
  if (typeof item.content === 'string') text = item.content;
  else if (Array.isArray(item.content)) parts = readParts(item.content, path, i);
  else throw invalidInput(WHERE, path, i, 'has content that is neither a string nor parts', 'Give content.');
  const meta = { ...ids(item), ...(role === 'developer' ? { role: 'developer' } : {}), parts: parts?.carried };
  const onlyText = (what: string): string | TextPart[] => {
    if (text !== undefined) return text;
    const other = parts?.carried[0];
    if (other !== undefined) {
      const type = JSON.stringify((other.part as { type?: unknown }).type);
      throw invalidInput(
        WHERE,
        `${path}.content[${other.at}]`,
        i,
        `(${what}) has a part of type ${type}`,
        'Only user messages and tool outputs hold files.',
      );
    }
    const content = parts?.content ?? [];
    if (content.some((p) => p.type === 'image'))
      throw invalidInput(WHERE, path, i, `(${what}) has an image`, 'Only user messages and tool outputs hold images.');
    return content as TextPart[];
  };
  switch (role) {
    case 'system':
    case 'developer': {
      const content = onlyText(role);
      const joined = typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
      return { role: 'system', content: joined, ...metadataWith(RESPONSES_METADATA, meta) };
    }
    case 'user':
      return { role: 'user', content: text ?? parts?.content ?? [], ...metadataWith(RESPONSES_METADATA, meta) };
    case 'assistant': {
      // Without its item id an assistant message is written back as one string (see toOpenAIResponses).
      const content = onlyText('assistant');
      const keepParts = meta.id !== undefined && typeof content !== 'string' && content.length > 1;
      const single = typeof content === 'string' ? content : keepParts ? content : contentText(content);
      return { role: 'assistant', content: single, ...metadataWith(RESPONSES_METADATA, meta) };
    }
    default:
      throw invalidInput(
        WHERE,
        path,
        i,
        `has role ${JSON.stringify(role)}`,
        "A message item has role 'user', 'assistant', 'system' or 'developer'.",
      );
  }
}

function responsesMeta(message: Draft): ResponsesMetadata {
  return message.metadata?.[RESPONSES_METADATA] ?? {};
}

function setMeta(message: Draft, meta: ResponsesMetadata): void {
  const { metadata } = metadataWith(RESPONSES_METADATA, { ...meta }, message.metadata);
  if (metadata !== undefined) message.metadata = metadata;
}

function addCall(target: AssistantMessage, item: Record<string, unknown>, i: number): void {
  const path = `input[${i}]`;
  const fix = "A function call is { type: 'function_call', call_id, name, arguments }.";
  const id = requireString(WHERE, path, i, item.call_id, 'call_id', fix);
  const name = requireString(WHERE, path, i, item.name, 'name', fix);
  const args = parseToolArguments(item.arguments);
  target.toolCalls = [...(target.toolCalls ?? []), { id, name, arguments: args }];
  const text = rawArguments(item.arguments, args);
  const callIds = { ...ids(item), ...(text === undefined ? {} : { arguments: text }) };
  if (Object.keys(callIds).length > 0) {
    setMeta(target, { ...responsesMeta(target), calls: { ...responsesMeta(target).calls, [id]: callIds } });
  }
}

function outputItem(item: Record<string, unknown>, i: number): Draft {
  const path = `input[${i}]`;
  const fix = "A function call output is { type: 'function_call_output', call_id, output }.";
  const toolCallId = requireString(WHERE, path, i, item.call_id, 'call_id', fix);
  let content: string | ContentPart[];
  let carried: CarriedPart[] = [];
  if (typeof item.output === 'string') content = item.output;
  else if (Array.isArray(item.output)) ({ content, carried } = readParts(item.output, path, i));
  else throw invalidInput(WHERE, path, i, 'has an output that is neither a string nor parts', fix);
  return { role: 'tool', toolCallId, content, ...metadataWith(RESPONSES_METADATA, { ...ids(item), parts: carried }) };
}

/**
 * OpenAI Responses API input items as our messages: `message` items (string or parts),
 * `function_call` items (joined to the assistant message before them, arguments parsed)
 * and `function_call_output` items. Other items (reasoning, built-in tool calls) and
 * input_file parts are kept in `metadata.openaiResponses`, so {@link toOpenAIResponses}
 * puts them back where they were; they are not counted or compacted. Throws
 * LOUSHO_MESSAGE_INVALID naming the item and the fix when an item cannot be read.
 *
 * @example
 * const messages = fromOpenAIResponses([
 *   { role: 'user', content: 'Weather in Paris?' },
 *   { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
 *   { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
 * ]);
 */
export function fromOpenAIResponses(items: readonly unknown[], options: ConvertOptions = {}): Message[] {
  return checkedTranscript(responsesMessages(items), options);
}

/** {@link fromOpenAIResponses} before the transcript is checked: for a log reader that adds to the messages first. */
export function responsesMessages(items: readonly unknown[]): Message[] {
  checkArray(WHERE, items, 'input items');
  const out: Draft[] = [];
  let pending: unknown[] = [];
  const push = (message: Draft) => {
    if (pending.length > 0) setMeta(message, { ...responsesMeta(message), before: pending });
    pending = [];
    out.push(message);
  };
  items.forEach((item, i) => {
    const path = `input[${i}]`;
    if (!isRecord(item)) throw invalidInput(WHERE, path, i, 'is not an object', 'Give { type, ... } items.');
    const type = item.type ?? (item.role === undefined ? undefined : 'message');
    if (type === 'message') push(messageItem(item, i));
    else if (type === 'function_call_output') push(outputItem(item, i));
    else if (type === 'function_call') {
      const last = out[out.length - 1];
      const target: AssistantMessage =
        pending.length === 0 && last?.role === 'assistant' ? last : { role: 'assistant', content: '' };
      addCall(target, item, i);
      if (target !== last) push(target);
    } else if (typeof type === 'string') pending.push(item);
    else throw invalidInput(WHERE, path, i, 'has no type', "Give each item a type ('message', 'function_call', ...).");
  });
  const last = out[out.length - 1];
  if (pending.length > 0 && last !== undefined) setMeta(last, { ...responsesMeta(last), after: pending });
  return out;
}
