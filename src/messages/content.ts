import type { ContentPart, TextPart } from './types.js';

/** The text of a message's content: a string as is, parts joined by newlines (images left out). */
export function contentText(content: string | readonly (ContentPart | TextPart)[]): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += text === '' ? part.text : `\n${part.text}`;
  }
  return text;
}

/** Number of characters of text in a content value (images count zero). */
export function contentLength(content: string | readonly (ContentPart | TextPart)[]): number {
  if (typeof content === 'string') return content.length;
  let length = 0;
  for (const part of content) if (part.type === 'text') length += part.text.length;
  return length;
}
