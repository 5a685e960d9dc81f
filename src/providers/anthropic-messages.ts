import type { JSONSchema } from '../contracts/json-schema.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { FinishReason, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { LoushoError } from '../errors/lousho-error.js';
import { contentText } from '../messages/content.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { ContentPart, ImagePart, Message, TextPart, ToolCall } from '../messages/types.js';

// The Messages API wire format (only what this library writes and reads). These types are
// our own so the package does not depend on the SDK's types; the SDK's accept them.

/** The image types the Messages API accepts. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string } | { type: 'url'; url: string };
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | (AnthropicTextBlock | AnthropicImageBlock)[];
  is_error: boolean;
}

type UserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock;
type AssistantBlock = AnthropicTextBlock | AnthropicToolUseBlock;

/** One message of the `messages` array. */
export type AnthropicMessage =
  | { role: 'user'; content: UserBlock[] }
  | { role: 'assistant'; content: AssistantBlock[] };

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** The body of one POST /v1/messages (without `stream`). */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string;
  tools?: AnthropicTool[];
  temperature?: number;
}

/** A request body and, for each block of each message sent, the index of the transcript message it came from. */
export interface AnthropicRequest {
  body: AnthropicRequestBody;
  /** sources[i][j]: the index in request.messages of block j of message i of the body. */
  sources: number[][];
}

/** The usage object of a reply, of message_start and of message_delta. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** A content block of a reply; blocks other than text and tool_use are ignored. */
export interface AnthropicContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** A whole reply (the non-streaming response, or the message of message_start). */
export interface AnthropicReply {
  model?: string;
  content?: AnthropicContentBlock[];
  stop_reason?: string | null;
  usage?: AnthropicUsage | null;
}

/** One event of a streamed reply. */
export interface AnthropicStreamEvent {
  type: string;
  index?: number;
  message?: AnthropicReply;
  content_block?: AnthropicContentBlock;
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: AnthropicUsage | null;
}

const MEDIA_TYPES: readonly AnthropicImageMediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

function sniffMediaType(bytes: Uint8Array): AnthropicImageMediaType | undefined {
  const at = (i: number) => bytes[i] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46 && at(3) === 0x38) return 'image/gif';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

function mediaType(declared: string | undefined, head: () => Uint8Array, index: number): AnthropicImageMediaType {
  if (declared !== undefined && declared !== '') {
    const normal = declared
      .trim()
      .toLowerCase()
      .replace(/^image\/jpg$/, 'image/jpeg');
    const known = MEDIA_TYPES.find((t) => t === normal);
    if (known !== undefined) return known;
    throw new LoushoError(
      'LOUSHO_MESSAGE_INVALID',
      `messages[${index}] has an image of type ${declared}; Anthropic accepts ${MEDIA_TYPES.join(', ')}. Convert the image first.`,
      { details: { index, mediaType: declared } },
    );
  }
  const sniffed = sniffMediaType(head());
  if (sniffed !== undefined) return sniffed;
  throw new LoushoError(
    'LOUSHO_MESSAGE_INVALID',
    `messages[${index}] has an image whose type is not given and is not PNG, JPEG, GIF or WebP. ` +
      `Set mediaType on the image part (Anthropic accepts ${MEDIA_TYPES.join(', ')}).`,
    { details: { index } },
  );
}

/**
 * An image part as a Messages API image block: http(s) URLs as a url source; data URLs,
 * base64 text and raw bytes as a base64 source with the media type given or read from the bytes.
 */
export function toImageBlock(part: ImagePart, index: number): AnthropicImageBlock {
  const image = part.image instanceof URL ? part.image.href : part.image;
  if (image instanceof Uint8Array) {
    const data = Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64');
    return {
      type: 'image',
      source: { type: 'base64', media_type: mediaType(part.mediaType, () => image, index), data },
    };
  }
  if (/^https?:/i.test(image)) return { type: 'image', source: { type: 'url', url: image } };
  const dataUrl = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(image);
  if (dataUrl !== null) {
    const payload = image.slice(dataUrl[0].length);
    const isBase64 = /;base64/i.test(dataUrl[2] ?? '');
    const data = isBase64 ? payload : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
    const declared = dataUrl[1] === '' ? part.mediaType : dataUrl[1];
    const media = mediaType(declared, () => Buffer.from(data.slice(0, 32), 'base64'), index);
    return { type: 'image', source: { type: 'base64', media_type: media, data } };
  }
  const media = mediaType(part.mediaType, () => Buffer.from(image.slice(0, 32), 'base64'), index);
  return { type: 'image', source: { type: 'base64', media_type: media, data: image } };
}

function textBlocks(content: string | readonly TextPart[]): AnthropicTextBlock[] {
  const parts = typeof content === 'string' ? [content] : content.map((p) => p.text);
  return parts.filter((t) => t.trim() !== '').map((text) => ({ type: 'text', text }));
}

function userBlocks(
  content: string | readonly ContentPart[],
  index: number,
): (AnthropicTextBlock | AnthropicImageBlock)[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
  for (const part of content) {
    if (part.type === 'image') blocks.push(toImageBlock(part, index));
    else if (part.text !== '') blocks.push({ type: 'text', text: part.text });
  }
  return blocks;
}

/** A tool call's arguments as a tool_use input, which must be an object. */
function toolInput(args: unknown): Record<string, unknown> {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toolResult(m: Extract<Message, { role: 'tool' }>, index: number): AnthropicToolResultBlock {
  const hasImage = typeof m.content !== 'string' && m.content.some((p) => p.type === 'image');
  const content = hasImage ? userBlocks(m.content, index) : contentText(m.content);
  return {
    type: 'tool_result',
    tool_use_id: m.toolCallId,
    ...(content === '' ? {} : { content }),
    is_error: m.isError === true,
  };
}

/** The text that asks for JSON output, appended to the system prompt when a request has an outputSchema. */
export function outputSchemaInstruction(schema: JSONSchema): string {
  return (
    'Answer with a single JSON value that matches the JSON Schema below, and nothing else: ' +
    `no prose, no Markdown code fences.\n${JSON.stringify(schema)}`
  );
}

interface Pending {
  role: 'user' | 'assistant';
  blocks: (UserBlock | AssistantBlock)[];
  sources: number[];
}

/**
 * Our transcript in the Messages API format: leading system messages become `system`,
 * later ones user text prefixed "[system] "; tool results become tool_result blocks of a
 * user message; consecutive messages of one role are merged (tool_result blocks first, as
 * the API requires); empty messages are dropped. `metadata` is never sent.
 */
export function toAnthropicMessages(messages: readonly Message[]): {
  system: string | undefined;
  messages: AnthropicMessage[];
  sources: number[][];
} {
  const system: string[] = [];
  const out: Pending[] = [];
  let leading = true;
  const add = (role: Pending['role'], blocks: Pending['blocks'], index: number) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    const target = last?.role === role ? last : { role, blocks: [], sources: [] };
    if (target !== last) out.push(target);
    target.blocks.push(...blocks);
    target.sources.push(...blocks.map(() => index));
  };
  messages.forEach((m, index) => {
    if (m.role === 'system') {
      if (leading) system.push(m.content);
      else add('user', [{ type: 'text', text: `[system] ${m.content}` }], index);
      return;
    }
    leading = false;
    if (m.role === 'user') add('user', userBlocks(m.content, index), index);
    else if (m.role === 'tool') add('user', [toolResult(m, index)], index);
    else {
      const calls: AnthropicToolUseBlock[] = (m.toolCalls ?? []).map((c) => ({
        type: 'tool_use',
        id: c.id,
        name: c.name,
        input: toolInput(c.arguments),
      }));
      add('assistant', [...textBlocks(m.content), ...calls], index);
    }
  });
  const wire: AnthropicMessage[] = [];
  const sources: number[][] = [];
  for (const p of out) {
    const order = p.blocks.map((_, i) => i);
    if (p.role === 'user') {
      // tool_result blocks must open the user message that follows the tool_use blocks.
      const first = (i: number) => (p.blocks[i]?.type === 'tool_result' ? 0 : 1);
      order.sort((a, b) => first(a) - first(b) || a - b);
    }
    const blocks = order.map((i) => p.blocks[i]);
    sources.push(order.map((i) => p.sources[i] ?? 0));
    wire.push(
      p.role === 'user'
        ? { role: 'user', content: blocks as UserBlock[] }
        : { role: 'assistant', content: blocks as AssistantBlock[] },
    );
  }
  const text = system.filter((s) => s !== '').join('\n\n');
  return { system: text === '' ? undefined : text, messages: wire, sources };
}

/** The request body of one Messages API call. `max_tokens`: the request's, else `defaultMaxTokens`. */
export function toAnthropicRequest(request: ModelRequest, modelId: string, defaultMaxTokens: number): AnthropicRequest {
  const { system, messages, sources } = toAnthropicMessages(request.messages);
  const instruction = request.outputSchema === undefined ? undefined : outputSchemaInstruction(request.outputSchema);
  const fullSystem = [system, instruction].filter((s): s is string => s !== undefined).join('\n\n');
  const tools = (request.tools ?? []).map(
    (t): AnthropicTool => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      input_schema: { type: 'object', ...t.parameters },
    }),
  );
  return {
    body: {
      model: modelId,
      max_tokens: request.maxOutputTokens ?? defaultMaxTokens,
      messages,
      ...(fullSystem === '' ? {} : { system: fullSystem }),
      ...(tools.length === 0 ? {} : { tools }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    },
    sources,
  };
}

export function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

const count = (n: number | null | undefined): number | undefined => (typeof n === 'number' ? n : undefined);

/** Usage in our terms: input counts the cached and cache-written tokens too; unknown is undefined. */
export function toUsage(usage: AnthropicUsage | null | undefined): Usage {
  const input = count(usage?.input_tokens);
  const read = count(usage?.cache_read_input_tokens);
  const written = count(usage?.cache_creation_input_tokens);
  return {
    inputTokens: input === undefined ? undefined : input + (read ?? 0) + (written ?? 0),
    outputTokens: count(usage?.output_tokens),
    cachedInputTokens: read,
  };
}

/** The text and tool calls of a whole reply. */
export function fromAnthropicReply(reply: AnthropicReply): {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage;
  modelId?: string;
} {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of reply.content ?? []) {
    if (block.type === 'text') text += block.text ?? '';
    else if (block.type === 'tool_use')
      toolCalls.push({
        id: block.id ?? `toolu_${toolCalls.length}`,
        name: block.name ?? '',
        arguments: block.input ?? {},
      });
  }
  return {
    text,
    toolCalls,
    finishReason: toFinishReason(reply.stop_reason),
    usage: toUsage(reply.usage),
    ...(reply.model === undefined ? {} : { modelId: reply.model }),
  };
}

/**
 * Turns the events of a streamed reply into stream parts: text deltas as they come, each
 * tool call when its block stops, and the finish part from finish() after message_stop.
 */
export class AnthropicStreamParser {
  private readonly tools = new Map<number, { id: string; name: string; json: string; input: unknown }>();
  private usage: AnthropicUsage = {};
  private stopReason: string | null | undefined;
  private model: string | undefined;
  /** True once message_stop arrived. */
  stopped = false;

  accept(event: AnthropicStreamEvent): ModelStreamPart[] {
    const index = event.index ?? 0;
    switch (event.type) {
      case 'message_start':
        this.model = event.message?.model;
        this.mergeUsage(event.message?.usage);
        return [];
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text' && block.text !== undefined && block.text !== '')
          return [{ type: 'text-delta', text: block.text }];
        if (block?.type === 'tool_use') {
          this.tools.set(index, {
            id: block.id ?? `toolu_${index}`,
            name: block.name ?? '',
            json: '',
            input: block.input,
          });
        }
        return [];
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text !== undefined && delta.text !== '')
          return [{ type: 'text-delta', text: delta.text }];
        const tool = this.tools.get(index);
        if (delta?.type === 'input_json_delta' && tool !== undefined) tool.json += delta.partial_json ?? '';
        return [];
      }
      case 'content_block_stop': {
        const tool = this.tools.get(index);
        if (tool === undefined) return [];
        this.tools.delete(index);
        const input = tool.json === '' ? (tool.input ?? {}) : parseToolArguments(tool.json);
        return [{ type: 'tool-call', toolCall: { id: tool.id, name: tool.name, arguments: input } }];
      }
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.stopReason = event.delta.stop_reason;
        this.mergeUsage(event.usage);
        return [];
      case 'message_stop':
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  /** The finish part: the stop reason and the usage of message_start updated by message_delta. */
  finish(): Extract<ModelStreamPart, { type: 'finish' }> {
    return {
      type: 'finish',
      finishReason: toFinishReason(this.stopReason),
      usage: toUsage(this.usage),
      ...(this.model === undefined ? {} : { modelId: this.model }),
    };
  }

  private mergeUsage(usage: AnthropicUsage | null | undefined): void {
    if (usage === undefined || usage === null) return;
    const next: AnthropicUsage = { ...this.usage };
    for (const key of [
      'input_tokens',
      'output_tokens',
      'cache_read_input_tokens',
      'cache_creation_input_tokens',
    ] as const) {
      const value = usage[key];
      if (typeof value === 'number') next[key] = value;
    }
    this.usage = next;
  }
}
