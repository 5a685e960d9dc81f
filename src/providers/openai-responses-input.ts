import { contentText } from '../messages/content.js';
import { imageUrl } from '../messages/image-source.js';
import type { AssistantMessage, AssistantPart, ContentPart, Message, TextPart } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import type { ResponsesInputContent, ResponsesInputItem } from './openai-responses-api-types.js';

/** Which reasoning and compaction parts go back: the ones this provider wrote. */
export interface ResponsesInputSettings {
  /** The provider name its parts carry (e.g. 'openai'); parts of other providers are not sent. */
  provider: string;
  /** Whether the API keeps responses (`store`): then a reasoning item is sent back by id even without its encrypted content. */
  store: boolean;
}

function inputContent(content: readonly ContentPart[]): ResponsesInputContent[] {
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : { type: 'input_image', image_url: imageUrl(part), detail: part.detail ?? 'auto' },
  );
}

/**
 * An assistant message as items, in order: its text as a message (one per phase, with its
 * phase, where the model wrote phases), each reasoning and
 * compaction part this provider wrote as the item it came from (unchanged: id, encrypted
 * content), then its tool calls as function_call items. Reasoning without encrypted content
 * goes back only when the API stored it (`store: true`, by id).
 */
function assistantItems(m: AssistantMessage, settings: ResponsesInputSettings): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  const parts: AssistantPart[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  // A message that had phases has its other text as the final answer (a streamed answer's parts carry none).
  const phased = parts.some((p) => p.type === 'text' && p.phase !== undefined);
  let text = '';
  let phase: TextPart['phase'];
  const flush = () => {
    if (text.trim() !== '')
      items.push({ type: 'message', role: 'assistant', content: text, ...(phase === undefined ? {} : { phase }) });
    text = '';
  };
  for (const part of parts) {
    if (part.type === 'text') {
      const next = part.phase ?? (phased ? 'final_answer' : undefined);
      if (next !== phase) flush();
      phase = next;
      text += part.text;
      continue;
    }
    if (part.provider !== settings.provider) continue;
    const id = part.id === undefined ? {} : { id: part.id };
    if (part.type === 'compaction') {
      if (part.encrypted === undefined) continue;
      flush();
      items.push({ type: 'compaction', encrypted_content: part.encrypted, ...id });
    } else if (part.encrypted !== undefined || (settings.store && part.id !== undefined)) {
      flush();
      items.push({
        type: 'reasoning',
        ...id,
        summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
        ...(part.encrypted === undefined ? {} : { encrypted_content: part.encrypted }),
      });
    }
  }
  flush();
  for (const call of m.toolCalls ?? [])
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: argumentsText(call.arguments) });
  return items;
}

/**
 * Our transcript as Responses API input items: system messages as system messages in
 * place, user messages with their images, assistant messages as their items (see
 * assistantItems), tool results as function_call_output (with their images). `metadata` is
 * never sent.
 */
export function toResponsesInput(messages: readonly Message[], settings: ResponsesInputSettings): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'system') items.push({ type: 'message', role: 'system', content: m.content });
    else if (m.role === 'user')
      items.push({
        type: 'message',
        role: 'user',
        content: typeof m.content === 'string' ? m.content : inputContent(m.content),
      });
    else if (m.role === 'assistant') items.push(...assistantItems(m, settings));
    else {
      const images = typeof m.content !== 'string' && m.content.some((p) => p.type === 'image');
      items.push({
        type: 'function_call_output',
        call_id: m.toolCallId,
        output: images ? inputContent(m.content as ContentPart[]) : contentText(m.content),
      });
    }
  }
  return items;
}
