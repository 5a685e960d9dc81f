import type { ContentPart, ImagePart } from '../messages/types.js';
import { cutToolResult } from './tool-limits.js';

const CONTENT = Symbol.for('@lousho/build-ai-agent.tool-content');

/** A tool result given as content parts (text and images), made by {@link toolContent}. */
export interface ToolContent {
  readonly [CONTENT]: true;
  /** The parts the model reads, in order. */
  readonly parts: readonly ContentPart[];
}

/**
 * A tool result the model reads as these parts: text as text, images as images on the
 * providers that carry images in a tool result (a short note where one does not). Return it
 * from execute(); anything else a tool returns is sent as text.
 */
export function toolContent(parts: readonly ContentPart[]): ToolContent {
  return { [CONTENT]: true, parts };
}

/** Whether a tool returned {@link toolContent}. */
export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONTENT] === true;
}

/** The characters an image part stands for in the result-size rule: its base64 or URL text. */
function imageChars(part: ImagePart): number {
  const { image } = part;
  if (image instanceof Uint8Array) return Math.ceil(image.byteLength / 3) * 4;
  return image instanceof URL ? image.href.length : image.length;
}

/**
 * The parts under the result-size rule: their text, joined by newlines, is cut exactly as a
 * text result is (and then stands where the first text part stood), and an image longer than
 * `max` characters is replaced by a note saying so. A result of one text part is that text.
 */
export function cutToolContent(parts: readonly ContentPart[], max: number): string | ContentPart[] {
  const texts = parts.filter((p) => p.type === 'text');
  const joined = texts.map((p) => p.text).join('\n');
  const cut = joined.length > max ? cutToolResult(joined, max) : undefined;
  const out: ContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (cut === undefined) out.push(part);
      else if (part === texts[0]) out.push({ type: 'text', text: cut });
      continue;
    }
    const chars = imageChars(part);
    const note = `[image left out: ${chars.toLocaleString('en-US')} characters, over the ${max.toLocaleString('en-US')} a result may hold]`;
    out.push(chars <= max ? part : { type: 'text', text: note });
  }
  if (out.length === 0) return '';
  return out.length === 1 && out[0]?.type === 'text' ? out[0].text : out;
}
