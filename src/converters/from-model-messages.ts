import type { ContentPart, ImagePart, Message, MessageMetadata, TextPart, ToolCall } from '../messages/types.js';
import { dropEmptyTextBesideCalls, metadataWith, splitCarried } from './carried-parts.js';
import { type ConvertOptions, checkedTranscript } from './checked-transcript.js';
import { checkArray, invalidInput, isRecord, requireString } from './invalid-input.js';
import {
  LOUSHO_PROVIDER_OPTIONS,
  MODEL_MESSAGE_METADATA,
  type ModelMessageMetadata,
  type ModelProviderOptions,
} from './model-message-types.js';
import { readToolOutput } from './model-tool-output.js';

const WHERE = 'fromModelMessages()';

/** Splits providerOptions into our metadata (its `lousho` entry) and the other providers' options. */
function options(value: unknown): { lousho: MessageMetadata | undefined; others: ModelProviderOptions | undefined } {
  if (!isRecord(value)) return { lousho: undefined, others: undefined };
  const { [LOUSHO_PROVIDER_OPTIONS]: lousho, ...others } = value;
  return {
    lousho: isRecord(lousho) ? (lousho as MessageMetadata) : undefined,
    others: Object.keys(others).length === 0 ? undefined : (others as ModelProviderOptions),
  };
}

function metadata(base: MessageMetadata | undefined, meta: ModelMessageMetadata) {
  return metadataWith(MODEL_MESSAGE_METADATA, { ...meta }, base);
}

const isImageFile = (part: Record<string, unknown>) =>
  part.type === 'file' && typeof part.mediaType === 'string' && part.mediaType.startsWith('image/');

function isOurUserPart(part: unknown): part is Record<string, unknown> {
  return (
    isRecord(part) &&
    ((part.type === 'text' && typeof part.text === 'string') || part.type === 'image' || isImageFile(part))
  );
}

function image(part: Record<string, unknown>, path: string, i: number): ImagePart {
  let data = part.type === 'image' ? part.image : part.data;
  if (data instanceof ArrayBuffer) data = new Uint8Array(data);
  if (typeof data !== 'string' && !(data instanceof Uint8Array) && !(data instanceof URL)) {
    throw invalidInput(WHERE, path, i, 'has an image without data', 'Give the image as base64, bytes or a URL.');
  }
  const openai = isRecord(part.providerOptions) ? part.providerOptions.openai : undefined;
  const detail = isRecord(openai) ? openai.imageDetail : undefined;
  return {
    type: 'image',
    image: data,
    ...(typeof part.mediaType === 'string' ? { mediaType: part.mediaType } : {}),
    ...(detail === 'low' || detail === 'high' || detail === 'auto' ? { detail } : {}),
  };
}

function userMessage(
  m: Record<string, unknown>,
  i: number,
  base: MessageMetadata | undefined,
  meta: ModelMessageMetadata,
): Message {
  if (typeof m.content === 'string') return { role: 'user', content: m.content, ...metadata(base, meta) };
  const { kept, carried } = splitCarried(m.content as unknown[], isOurUserPart);
  const content = kept.map(
    (part, j): ContentPart =>
      part.type === 'text'
        ? { type: 'text', text: part.text as string }
        : image(part, `messages[${i}].content[${j}]`, i),
  );
  return { role: 'user', content, ...metadata(base, { ...meta, parts: carried }) };
}

function assistantMessage(
  m: Record<string, unknown>,
  i: number,
  base: MessageMetadata | undefined,
  meta: ModelMessageMetadata,
  names: Map<string, string>,
): Message {
  if (typeof m.content === 'string') return { role: 'assistant', content: m.content, ...metadata(base, meta) };
  const isOurs = (part: unknown): part is Record<string, unknown> =>
    isRecord(part) &&
    ((part.type === 'text' && typeof part.text === 'string') ||
      (part.type === 'tool-call' && part.providerExecuted !== true));
  const isCall = (part: unknown) => isRecord(part) && part.type === 'tool-call' && part.providerExecuted !== true;
  const { kept, carried } = splitCarried(dropEmptyTextBesideCalls(m.content as unknown[], isCall), isOurs);
  const texts: TextPart[] = [];
  const calls: ToolCall[] = [];
  const callOptions: Record<string, ModelProviderOptions> = {};
  kept.forEach((part, j) => {
    if (part.type === 'text') {
      texts.push({ type: 'text', text: part.text as string });
      return;
    }
    const path = `messages[${i}].content[${j}]`;
    const fix = "A tool call is { type: 'tool-call', toolCallId, toolName, input }.";
    const id = requireString(WHERE, path, i, part.toolCallId, 'toolCallId', fix);
    const name = requireString(WHERE, path, i, part.toolName, 'toolName', fix);
    names.set(id, name);
    calls.push({ id, name, arguments: part.input ?? {} });
    if (isRecord(part.providerOptions)) callOptions[id] = part.providerOptions as ModelProviderOptions;
  });
  const content = calls.length > 0 && texts.length <= 1 ? (texts[0]?.text ?? '') : texts;
  const more = { ...meta, parts: carried, ...(Object.keys(callOptions).length === 0 ? {} : { callOptions }) };
  return { role: 'assistant', content, ...(calls.length === 0 ? {} : { toolCalls: calls }), ...metadata(base, more) };
}

function toolMessages(
  m: Record<string, unknown>,
  i: number,
  base: MessageMetadata | undefined,
  meta: ModelMessageMetadata,
  names: Map<string, string>,
): Message[] {
  const out: Message[] = [];
  let before: unknown[] = [];
  (m.content as unknown[]).forEach((part, j) => {
    if (!isRecord(part) || part.type !== 'tool-result') {
      before.push(part);
      return;
    }
    const path = `messages[${i}].content[${j}]`;
    const fix = "A tool result is { type: 'tool-result', toolCallId, toolName, output }.";
    const toolCallId = requireString(WHERE, path, i, part.toolCallId, 'toolCallId', fix);
    const toolName =
      typeof part.toolName === 'string' && part.toolName !== names.get(toolCallId) ? part.toolName : undefined;
    const read = readToolOutput(part.output, WHERE, path, i);
    const own = options(part.providerOptions);
    const more: ModelMessageMetadata = {
      ...meta,
      ...(own.others === undefined ? {} : { partOptions: own.others }),
      ...(read.output === undefined ? {} : { output: read.output }),
      parts: read.carried,
      before,
    };
    before = [];
    out.push({
      role: 'tool',
      toolCallId,
      ...(toolName === undefined ? {} : { toolName }),
      content: read.content,
      ...(read.isError ? { isError: true } : {}),
      ...metadata(own.lousho === undefined ? base : { ...base, ...own.lousho }, more),
    });
  });
  const last = out[out.length - 1];
  if (before.length > 0 && last !== undefined) {
    const lastMeta = last.metadata?.[MODEL_MESSAGE_METADATA] as ModelMessageMetadata | undefined;
    const { [MODEL_MESSAGE_METADATA]: _, ...rest } = last.metadata ?? {};
    last.metadata = metadata(rest, { ...lastMeta, after: before }).metadata as MessageMetadata;
  }
  return out;
}

/**
 * AI SDK ModelMessages (ai 5 and 6) as our messages: text, images (image parts and image
 * files), tool-call parts, and tool results with outputs of type text, json, error-text,
 * error-json, execution-denied and content. `providerOptions.lousho` holds our metadata
 * (`{ lousho: { pinned: true } }` pins a message); other providerOptions, reasoning parts,
 * other files and provider-executed tools are kept in `metadata.aiSdk`, so
 * {@link toModelMessages} puts them back. Throws LOUSHO_MESSAGE_INVALID naming the message
 * and the fix when a message cannot be read.
 *
 * @example
 * const { response } = await generateText({ model, tools, messages: history });
 * const transcript = fromModelMessages([...history, ...response.messages]);
 */
export function fromModelMessages(messages: readonly unknown[], options: ConvertOptions = {}): Message[] {
  return checkedTranscript(modelMessagesToMessages(messages), options);
}

/** {@link fromModelMessages} without the check of how calls and results pair: for a part of a transcript (the messages a step added). */
export function modelMessagesToMessages(messages: readonly unknown[]): Message[] {
  checkArray(WHERE, messages);
  const names = new Map<string, string>();
  const out: Message[] = [];
  messages.forEach((m, i) => {
    const path = `messages[${i}]`;
    if (!isRecord(m)) throw invalidInput(WHERE, path, i, 'is not an object', 'Give { role, content }.');
    const { lousho, others } = options(m.providerOptions);
    const meta: ModelMessageMetadata = others === undefined ? {} : { providerOptions: others };
    const isText = typeof m.content === 'string';
    if (!isText && !Array.isArray(m.content))
      throw invalidInput(WHERE, path, i, 'has content that is neither a string nor parts', 'Give content.');
    if (m.role === 'system') {
      if (!isText) throw invalidInput(WHERE, path, i, '(system) has content that is not a string', 'Give a string.');
      out.push({ role: 'system', content: m.content as string, ...metadata(lousho, meta) });
    } else if (m.role === 'user') out.push(userMessage(m, i, lousho, meta));
    else if (m.role === 'assistant') out.push(assistantMessage(m, i, lousho, meta, names));
    else if (m.role === 'tool') {
      if (isText) throw invalidInput(WHERE, path, i, '(tool) has text content', 'Give tool-result parts.');
      out.push(...toolMessages(m, i, lousho, meta, names));
    } else {
      throw invalidInput(
        WHERE,
        path,
        i,
        `has role ${JSON.stringify(m.role)}`,
        "Give role 'system', 'user', 'assistant' or 'tool'.",
      );
    }
  });
  return out;
}
