import type { ChatCacheControl, ChatMessage, ChatPart, ChatTextPart } from './openai-messages.js';

/** The content of a message as parts, the last one marked; undefined when it has nothing to mark. */
function marked(content: string | ChatPart[] | null, mark: ChatCacheControl): ChatPart[] | undefined {
  if (content === null || content === '') return undefined;
  const parts: ChatPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  const last = parts[parts.length - 1];
  if (last === undefined) return undefined;
  parts[parts.length - 1] = { ...last, cache_control: mark };
  return parts;
}

function markAt(messages: ChatMessage[], index: number, mark: ChatCacheControl): void {
  const message = messages[index];
  if (message === undefined) return;
  const parts = marked(message.content, mark);
  if (parts === undefined) return;
  // Only a user message may hold images; the others get their text parts back.
  messages[index] = { ...message, content: parts as ChatTextPart[] } as ChatMessage;
}

/**
 * Anthropic prompt-cache breakpoints in a chat-completions body, the way OpenRouter takes
 * them for `anthropic/*` models (`cache_control` on a content part, the content then sent as
 * parts): on the last leading system message (the stable prefix; Anthropic caches the tools
 * before it), on the newest message (so the next step reads everything this one sent), and on
 * the message before the newest assistant message (where the previous request's newest
 * breakpoint was). Three of Anthropic's four; the chat format has no place for one on the
 * tools. A message without text (an assistant message with only tool calls) is not marked.
 * The places are computed from each request's messages alone, so after a compaction rewrote
 * the transcript they sit on its new messages. Returns new messages.
 */
export function withChatCacheBreakpoints(messages: readonly ChatMessage[], mark: ChatCacheControl): ChatMessage[] {
  const out = [...messages];
  let system = -1;
  while (out[system + 1]?.role === 'system') system++;
  const places = new Set<number>();
  if (system >= 0) places.add(system);
  const last = out.length - 1;
  if (last > system) places.add(last);
  let assistant = last;
  while (assistant > system && out[assistant]?.role !== 'assistant') assistant--;
  if (assistant - 1 > system) places.add(assistant - 1);
  for (const index of places) markAt(out, index, mark);
  return out;
}
