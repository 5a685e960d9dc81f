import type {
  ModelTextPart,
  ModelToolCallPart,
  ModelToolResultContent,
  ModelToolResultOutput,
  ModelToolResultPart,
} from '../converters/model-message-types.js';
import { contentText, textPartsOf } from '../messages/content.js';
import { readImageHeader } from '../messages/image-header.js';
import type { AssistantPart, ContentPart, ImagePart, Message, ToolMessage } from '../messages/types.js';

/*
 * Our messages as the prompt of a Vercel AI SDK language model (LanguageModelV2/V3/V4
 * of @ai-sdk/provider). The types here are what this adapter sends, declared locally so
 * the library imports no AI SDK package. Where the spec versions differ (file data and
 * images in tool results), the model's specificationVersion picks the form.
 */

/**
 * The data of a file part: bytes, base64 text or a URL in v2 and v3; a tagged object in
 * v4 (`{ type: 'data', data }` or `{ type: 'url', url }`).
 */
export type AISDKFileData =
  | Uint8Array
  | string
  | URL
  | { type: 'data'; data: Uint8Array | string }
  | { type: 'url'; url: URL };

/**
 * The parts a language-model prompt shares with a ModelMessage are the converters' types
 * (`converters/model-message-types.ts` owns the AI SDK's part shapes); only what the prompt
 * writes differently is declared here: file data, and v4's file form of an image in a result.
 */
export type AISDKTextPart = ModelTextPart;

export interface AISDKFilePart {
  type: 'file';
  data: AISDKFileData;
  /** e.g. 'image/png'; 'image/*' when the type is not known. */
  mediaType: string;
  providerOptions?: Record<string, Record<string, string>>;
}

/** A tool call: its parsed arguments (a JSON value) as `input`, not their text. */
export type AISDKToolCallPart = ModelToolCallPart;

/** One piece of a tool result with images: v2 'media', v3 'image-data' / 'image-url', v4 'file'. */
export type AISDKToolResultContent =
  | Extract<ModelToolResultContent, { type: 'text' | 'media' | 'image-data' | 'image-url' }>
  | { type: 'file'; data: { type: 'data'; data: string } | { type: 'url'; url: URL }; mediaType: string };

export type AISDKToolResultOutput =
  | Extract<ModelToolResultOutput, { type: 'text' | 'error-text' }>
  | { type: 'content'; value: AISDKToolResultContent[] };

export type AISDKToolResultPart = Omit<ModelToolResultPart, 'output' | 'providerOptions'> & {
  output: AISDKToolResultOutput;
};

/** One message of the prompt this adapter sends. */
export type AISDKPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: (AISDKTextPart | AISDKFilePart)[] }
  | { role: 'assistant'; content: (AISDKTextPart | AISDKToolCallPart)[] }
  | { role: 'tool'; content: AISDKToolResultPart[] };

/** The file and tool-result forms a spec version takes. */
export type AISDKPromptForm = 'v2' | 'v3' | 'v4';

/** v2 and v3 have their own forms; every later version is taken to be shaped like v4. */
export function promptForm(specificationVersion: string): AISDKPromptForm {
  return specificationVersion === 'v2' || specificationVersion === 'v3' ? specificationVersion : 'v4';
}

/** An image's bytes, base64 text or URL, with the media type when the source states it. */
type ImageSource =
  | { kind: 'url'; url: URL; mediaType?: string }
  | { kind: 'base64'; data: string; mediaType?: string }
  | { kind: 'bytes'; data: Uint8Array; mediaType?: string };

function imageSource(image: ImagePart['image']): ImageSource {
  if (image instanceof URL) return { kind: 'url', url: image };
  if (image instanceof Uint8Array) return { kind: 'bytes', data: image };
  if (/^data:/i.test(image)) {
    const comma = image.indexOf(',');
    const header = image.slice(5, comma < 0 ? undefined : comma);
    const payload = comma < 0 ? '' : image.slice(comma + 1);
    const mediaType = header.split(';')[0]?.trim();
    const typed = mediaType === undefined || mediaType === '' ? {} : { mediaType };
    if (/;base64$/i.test(header)) return { kind: 'base64', data: payload, ...typed };
    return { kind: 'bytes', data: new TextEncoder().encode(decodeURIComponent(payload)), ...typed };
  }
  if (/^https?:\/\//i.test(image)) return { kind: 'url', url: new URL(image) };
  return { kind: 'base64', data: image };
}

/** The part's media type, the data URL's, the one its bytes show, or 'image/*' (which every version accepts). */
function imageMediaType(part: ImagePart, source: ImageSource): string {
  if (part.mediaType !== undefined) return part.mediaType;
  if (source.mediaType !== undefined) return source.mediaType;
  if (source.kind === 'bytes') return readImageHeader(source.data)?.mediaType ?? 'image/*';
  if (source.kind === 'base64')
    return readImageHeader(Buffer.from(source.data.slice(0, 32), 'base64'))?.mediaType ?? 'image/*';
  return 'image/*';
}

function base64(source: ImageSource & { kind: 'base64' | 'bytes' }): string {
  return source.kind === 'base64' ? source.data : Buffer.from(source.data).toString('base64');
}

function filePart(part: ImagePart, form: AISDKPromptForm): AISDKFilePart {
  const source = imageSource(part.image);
  const mediaType = imageMediaType(part, source);
  let data: AISDKFileData;
  if (form === 'v4') {
    data = source.kind === 'url' ? { type: 'url', url: source.url } : { type: 'data', data: source.data };
  } else {
    data = source.kind === 'url' ? source.url : source.data;
  }
  return {
    type: 'file',
    data,
    mediaType,
    ...(part.detail === undefined ? {} : { providerOptions: { openai: { imageDetail: part.detail } } }),
  };
}

function imageResult(part: ImagePart, form: AISDKPromptForm): AISDKToolResultContent {
  const source = imageSource(part.image);
  const mediaType = imageMediaType(part, source);
  if (source.kind === 'url') {
    if (form === 'v4') return { type: 'file', data: { type: 'url', url: source.url }, mediaType };
    if (form === 'v3') return { type: 'image-url', url: source.url.href };
    // v2 tool results carry media as base64 only: name the URL in text instead.
    return { type: 'text', text: `[image: ${source.url.href}]` };
  }
  const data = base64(source);
  if (form === 'v4') return { type: 'file', data: { type: 'data', data }, mediaType };
  if (form === 'v3') return { type: 'image-data', data, mediaType };
  return { type: 'media', data, mediaType };
}

function toolOutput(message: ToolMessage, form: AISDKPromptForm): AISDKToolResultOutput {
  const { content } = message;
  const hasImages = typeof content !== 'string' && content.some((p) => p.type === 'image');
  if (message.isError === true || !hasImages) {
    return { type: message.isError === true ? 'error-text' : 'text', value: contentText(content) };
  }
  const value = (content as ContentPart[]).map(
    (part): AISDKToolResultContent =>
      part.type === 'text' ? { type: 'text', text: part.text } : imageResult(part, form),
  );
  return { type: 'content', value };
}

function textParts(content: string | readonly AssistantPart[]): AISDKTextPart[] {
  const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : textPartsOf(content);
  return parts.filter((p) => p.text !== '').map((p) => ({ type: 'text', text: p.text }));
}

/**
 * Our transcript as an AI SDK prompt. `metadata` is never sent; consecutive tool
 * messages become one tool message, as the AI SDK itself writes them; a tool result
 * names the tool its call named.
 */
export function toAISDKPrompt(messages: readonly Message[], form: AISDKPromptForm): AISDKPromptMessage[] {
  const prompt: AISDKPromptMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const parts: ContentPart[] =
          typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
        prompt.push({
          role: 'user',
          content: parts.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : filePart(p, form))),
        });
        break;
      }
      case 'assistant': {
        const content: (AISDKTextPart | AISDKToolCallPart)[] = textParts(message.content);
        for (const call of message.toolCalls ?? []) {
          toolNames.set(call.id, call.name);
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
        }
        // An assistant turn with neither text nor calls still takes its place in the transcript.
        if (content.length === 0) content.push({ type: 'text', text: '' });
        prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part: AISDKToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: toolNames.get(message.toolCallId) ?? message.toolName ?? 'unknown',
          output: toolOutput(message, form),
        };
        const last = prompt[prompt.length - 1];
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}
