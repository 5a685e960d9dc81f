import { contentText } from '../messages/content.js';
import { imageData } from '../messages/image-source.js';
import type { ContentPart, ToolMessage } from '../messages/types.js';
import { type CarriedPart, mergeCarried, splitCarried } from './carried-parts.js';
import { invalidInput, isRecord } from './invalid-input.js';
import type {
  JSONValue,
  ModelMessageMetadata,
  ModelToolResultContent,
  ModelToolResultOutput,
} from './model-message-types.js';

/** What a tool output becomes in our tool message. */
export interface ReadToolOutput {
  content: string | ContentPart[];
  isError: boolean;
  output?: ModelMessageMetadata['output'];
  carried: CarriedPart[];
}

const IMAGE_DATA = new Set(['media', 'image-data']);

function isOurPiece(piece: unknown): piece is Record<string, unknown> {
  if (!isRecord(piece)) return false;
  if (piece.type === 'text') return typeof piece.text === 'string';
  if (IMAGE_DATA.has(piece.type as string)) return typeof piece.data === 'string';
  if (piece.type === 'image-url') return typeof piece.url === 'string';
  const image = typeof piece.mediaType === 'string' && piece.mediaType.startsWith('image/');
  if (piece.type === 'file-data') return image && typeof piece.data === 'string';
  return piece.type === 'file-url' && image && typeof piece.url === 'string';
}

function toPart(piece: Record<string, unknown>): ContentPart {
  if (piece.type === 'text') return { type: 'text', text: piece.text as string };
  if (piece.type === 'image-url' || piece.type === 'file-url') return { type: 'image', image: piece.url as string };
  return { type: 'image', image: piece.data as string, mediaType: piece.mediaType as string };
}

/** An AI SDK tool output (ai 5 and 6 forms) as our content; `output` remembers a json or denied output. */
export function readToolOutput(output: unknown, where: string, path: string, index: number): ReadToolOutput {
  const fix = "A tool output is { type: 'text' | 'json' | 'error-text' | 'error-json' | 'content', value }.";
  if (!isRecord(output)) throw invalidInput(where, path, index, 'has no output object', fix);
  const { type, value } = output;
  switch (type) {
    case 'text':
    case 'error-text':
      if (typeof value !== 'string') throw invalidInput(where, path, index, `has a ${type} output without text`, fix);
      return { content: value, isError: type === 'error-text', carried: [] };
    case 'json':
    case 'error-json':
      return { content: JSON.stringify(value ?? null), isError: type === 'error-json', output: type, carried: [] };
    case 'execution-denied':
      return {
        content: typeof output.reason === 'string' ? output.reason : '',
        isError: true,
        output: type,
        carried: [],
      };
    case 'content': {
      if (!Array.isArray(value))
        throw invalidInput(where, path, index, 'has a content output that is not an array', fix);
      const { kept, carried } = splitCarried(value, isOurPiece);
      return { content: kept.map(toPart), isError: false, carried };
    }
    default:
      throw invalidInput(where, path, index, `has an output of type ${JSON.stringify(type)}`, fix);
  }
}

function parseJson(text: string): { value: JSONValue } | undefined {
  try {
    return { value: JSON.parse(text) as JSONValue };
  } catch {
    return undefined;
  }
}

/**
 * Our tool result as an AI SDK tool output: text (or error-text), json when it was json
 * and still parses (a pruned marker does not), content with images: 'image-data' /
 * 'image-url' for ai 6, 'media' (and a note for a URL) for ai 5.
 */
export function writeToolOutput(
  message: ToolMessage,
  meta: ModelMessageMetadata | undefined,
  version: 5 | 6,
): ModelToolResultOutput {
  const { content } = message;
  if (meta?.output === 'execution-denied' && version === 6) {
    const reason = contentText(content);
    return reason === '' ? { type: 'execution-denied' } : { type: 'execution-denied', reason };
  }
  if (typeof content === 'string' && meta?.parts === undefined) {
    const json = meta?.output === 'json' || meta?.output === 'error-json' ? parseJson(content) : undefined;
    if (json !== undefined) return { type: message.isError === true ? 'error-json' : 'json', value: json.value };
    return { type: message.isError === true ? 'error-text' : 'text', value: content };
  }
  if (message.isError === true) return { type: 'error-text', value: contentText(content) };
  const pieces = (typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content).map(
    (part): ModelToolResultContent => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      const data = imageData(part);
      if (data.kind === 'url')
        return version === 6 ? { type: 'image-url', url: data.url } : { type: 'text', text: `[image: ${data.url}]` };
      const mediaType = data.mediaType ?? 'image/png';
      return version === 6
        ? { type: 'image-data', data: data.data, mediaType }
        : { type: 'media', data: data.data, mediaType };
    },
  );
  return { type: 'content', value: mergeCarried(pieces, meta?.parts) as ModelToolResultContent[] };
}
