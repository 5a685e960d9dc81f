import type { AssistantPart, ContentPart, TextPart } from './types.js';

/** Any message's content: a string, or its parts. */
export type AnyContent = string | readonly (ContentPart | AssistantPart)[];

/**
 * The text of a message's content: a string as is, text parts joined by newlines (images,
 * reasoning and provider-side compactions left out; see `reasoningText()` for reasoning).
 */
export function contentText(content: AnyContent): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type === 'text') text += text === '' ? part.text : `\n${part.text}`;
  }
  return text;
}

/** Number of characters of text in a content value (images, reasoning and compactions count zero). */
export function contentLength(content: AnyContent): number {
  if (typeof content === 'string') return content.length;
  let length = 0;
  for (const part of content) if (part.type === 'text') length += part.text.length;
  return length;
}

/** The reasoning text of an assistant message's parts, joined by newlines ('' for a string or no reasoning). */
export function reasoningText(content: AnyContent): string {
  if (typeof content === 'string') return '';
  const texts: string[] = [];
  for (const part of content) if (part.type === 'reasoning' && part.text !== '') texts.push(part.text);
  return texts.join('\n');
}

/** The text parts of an assistant message's parts (reasoning and provider compactions left out). */
export function textPartsOf(content: readonly AssistantPart[]): TextPart[] {
  return content.filter((part): part is TextPart => part.type === 'text');
}
