import type { ChatCacheControl, ChatMessage, ChatPart, ChatTextPart } from './openai-messages.js';
import type { CachePlaces } from './prompt-cache-memory.js';

/** The content of a message as parts, the last one marked; undefined when it has nothing to mark. */
function marked(content: string | ChatPart[] | null, mark: ChatCacheControl): ChatPart[] | undefined {
  if (content === null || content === '') return undefined;
  const parts: ChatPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  const last = parts[parts.length - 1];
  if (last === undefined) return undefined;
  parts[parts.length - 1] = { ...last, cache_control: mark };
  return parts;
}

function markAt(messages: ChatMessage[], index: number, mark: ChatCacheControl): boolean {
  const message = messages[index];
  if (message === undefined) return false;
  const parts = marked(message.content, mark);
  if (parts === undefined) return false;
  // Only a user message may hold images; the others get their text parts back.
  messages[index] = { ...message, content: parts as ChatTextPart[] } as ChatMessage;
  return true;
}

/** Anthropic's most breakpoints a request may carry. */
const MAX_BREAKPOINTS = 4;

/**
 * Anthropic prompt-cache breakpoints in a chat-completions body, the way OpenRouter takes
 * them for `anthropic/*` models (`cache_control` on a content part, the content then sent as
 * parts), at most four, in the order of need the Anthropic provider keeps (see
 * withCacheBreakpoints): the newest message; the end of the longest prefix an earlier request
 * cached that this one did not change (`places.reuse`), else the message before the newest
 * assistant message; the end of the newest rewrite (`places.keep`); the last leading system
 * message (Anthropic caches the tools before it). The chat format has no place for one on the
 * tools. A message without text (an assistant message with only tool calls) is not marked.
 * Chat messages are our messages one for one, so the places are indexes of both. Returns new
 * messages and the indexes marked.
 */
export function withChatCacheBreakpoints(
  messages: readonly ChatMessage[],
  mark: ChatCacheControl,
  places?: CachePlaces,
): { messages: ChatMessage[]; places: number[] } {
  const out = [...messages];
  let system = -1;
  while (out[system + 1]?.role === 'system') system++;
  const last = out.length - 1;
  let assistant = last;
  while (assistant > system && out[assistant]?.role !== 'assistant') assistant--;
  const reuse = places?.reuse ?? (assistant - 1 > system ? assistant - 1 : undefined);
  const wanted = [last > system ? last : undefined, reuse, places?.keep, system >= 0 ? system : undefined];
  const marked: number[] = [];
  for (const index of wanted) {
    if (index === undefined || marked.includes(index) || marked.length >= MAX_BREAKPOINTS) continue;
    if (markAt(out, index, mark)) marked.push(index);
  }
  return { messages: out, places: marked };
}
