import { textPartsOf } from '../messages/content.js';
import type { ContentPart, Message, ToolMessage } from '../messages/types.js';
import { mergeCarried } from './carried-parts.js';
import {
  type JSONObject,
  LOUSHO_PROVIDER_OPTIONS,
  MODEL_MESSAGE_METADATA,
  type ModelImagePart,
  type ModelMessageMetadata,
  type ModelMessageShape,
  type ModelProviderOptions,
  type ModelTextPart,
  type ModelToolCallPart,
  type ModelToolResultPart,
} from './model-message-types.js';
import { writeToolOutput } from './model-tool-output.js';

/** Options of {@link toModelMessages}. */
export interface ToModelMessagesOptions {
  /** The AI SDK major whose tool-output forms to write: 6 (the default) or 5 ('media' images, no execution-denied). */
  version?: 5 | 6;
}

/** A message's `metadata.aiSdk`, and the rest of its metadata (which travels as providerOptions.lousho). */
function split(m: Message): { meta: ModelMessageMetadata | undefined; lousho: JSONObject | undefined } {
  const { [MODEL_MESSAGE_METADATA]: meta, ...rest } = m.metadata ?? {};
  return {
    meta: meta as ModelMessageMetadata | undefined,
    lousho: Object.keys(rest).length === 0 ? undefined : (rest as JSONObject),
  };
}

function providerOptions(others: ModelProviderOptions | undefined, lousho: JSONObject | undefined) {
  const all = { ...others, ...(lousho === undefined ? {} : { [LOUSHO_PROVIDER_OPTIONS]: lousho }) };
  return Object.keys(all).length === 0 ? {} : { providerOptions: all };
}

function userPart(part: ContentPart): ModelTextPart | ModelImagePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return {
    type: 'image',
    image: part.image,
    ...(part.mediaType === undefined ? {} : { mediaType: part.mediaType }),
    ...(part.detail === undefined ? {} : { providerOptions: { openai: { imageDetail: part.detail } } }),
  };
}

type ToolGroup = { role: 'tool'; content: ModelToolResultPart[]; providerOptions?: ModelProviderOptions };

/**
 * Our messages as AI SDK ModelMessages, for `messages` of generateText / streamText:
 * tool calls as tool-call parts, consecutive tool results as one tool message of
 * tool-result parts (json outputs stay json while they still parse; errors become
 * error-text), images as image parts. Our metadata travels as `providerOptions.lousho`,
 * and what {@link fromModelMessages} kept in `metadata.aiSdk` goes back where it was.
 * Lossy: an assistant's single text part next to tool calls becomes a string, image
 * `width`/`height` (see docs/converters.md).
 *
 * @example
 * const { text } = await generateText({ model, messages: toModelMessages(compacted) });
 */
export function toModelMessages(
  messages: readonly Message[],
  options: ToModelMessagesOptions = {},
): ModelMessageShape[] {
  const version = options.version ?? 6;
  const names = new Map<string, string>();
  const out: ModelMessageShape[] = [];
  let group: ToolGroup | undefined;
  for (const m of messages) {
    const { meta, lousho } = split(m);
    if (m.role !== 'tool') group = undefined;
    switch (m.role) {
      case 'system':
        out.push({ role: 'system', content: m.content, ...providerOptions(meta?.providerOptions, lousho) });
        break;
      case 'user': {
        const content =
          typeof m.content === 'string' && meta?.parts === undefined
            ? m.content
            : (mergeCarried(
                (typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content).map(
                  userPart,
                ),
                meta?.parts,
              ) as ModelTextPart[]);
        out.push({ role: 'user', content, ...providerOptions(meta?.providerOptions, lousho) });
        break;
      }
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        for (const call of calls) names.set(call.id, call.name);
        const texts =
          typeof m.content === 'string'
            ? m.content === ''
              ? []
              : [m.content]
            : textPartsOf(m.content).map((p) => p.text);
        const parts = [
          ...texts.map((text): ModelTextPart => ({ type: 'text', text })),
          ...calls.map(
            (c): ModelToolCallPart => ({
              type: 'tool-call',
              toolCallId: c.id,
              toolName: c.name,
              input: c.arguments,
              ...(meta?.callOptions?.[c.id] === undefined ? {} : { providerOptions: meta.callOptions[c.id] }),
            }),
          ),
        ];
        const plain = typeof m.content === 'string' && calls.length === 0 && meta?.parts === undefined;
        const content = plain ? (m.content as string) : (mergeCarried(parts, meta?.parts) as ModelTextPart[]);
        out.push({ role: 'assistant', content, ...providerOptions(meta?.providerOptions, lousho) });
        break;
      }
      default: {
        const part = toolResult(m, meta, lousho, names, version);
        const options = providerOptions(meta?.providerOptions, undefined);
        if (group === undefined || JSON.stringify(group.providerOptions) !== JSON.stringify(options.providerOptions)) {
          group = { role: 'tool', content: [], ...options };
          out.push(group);
        }
        group.content.push(...((meta?.before ?? []) as ModelToolResultPart[]), part);
        if (meta?.after !== undefined) {
          // Parts that ended their tool message: the next result starts a new one, as it did.
          group.content.push(...(meta.after as ModelToolResultPart[]));
          group = undefined;
        }
      }
    }
  }
  return out;
}

function toolResult(
  m: ToolMessage,
  meta: ModelMessageMetadata | undefined,
  lousho: JSONObject | undefined,
  names: Map<string, string>,
  version: 5 | 6,
): ModelToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: m.toolCallId,
    toolName: m.toolName ?? names.get(m.toolCallId) ?? 'unknown',
    output: writeToolOutput(m, meta, version),
    ...providerOptions(meta?.partOptions, lousho),
  };
}
