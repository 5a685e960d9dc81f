import type { ModelRequest } from '../contracts/model-request.js';
import type { ProviderCompactionResponse } from '../contracts/provider-compaction.js';
import { LoushoError } from '../errors/lousho-error.js';
import { redactText } from '../errors/redact.js';
import type { AssistantMessage, AssistantPart, ContentPart, Message } from '../messages/types.js';
import type { ResponsesCompactBody, ResponsesCompacted, ResponsesOutputItem } from './openai-responses-api-types.js';
import { type ResponsesInputSettings, toResponsesInput } from './openai-responses-input.js';
import {
  responsesMessageText,
  responsesNativePart,
  responsesToolCall,
  responsesUsage,
} from './openai-responses-reply.js';
import { promptCacheKeyOf } from './openai-responses-request.js';

/**
 * The body of one POST /v1/responses/compact: the request's system messages as
 * `instructions` (so they stay ours, outside the compacted window), the rest as input items.
 */
export function toResponsesCompactBody(
  request: ModelRequest,
  modelId: string,
  settings: ResponsesInputSettings & { promptCacheKey: boolean },
): ResponsesCompactBody {
  const system = request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const rest = request.messages.filter((m) => m.role !== 'system');
  return {
    model: modelId,
    input: toResponsesInput(rest, settings),
    ...(system.length === 0 ? {} : { instructions: system.join('\n\n') }),
    ...promptCacheKeyOf(request, settings),
  };
}

function userContent(item: ResponsesOutputItem): string | ContentPart[] {
  if (typeof item.content === 'string') return item.content;
  const parts = item.content ?? [];
  if (!parts.some((p) => p.type === 'input_image')) return responsesMessageText(item).text;
  return parts.map(
    (p): ContentPart =>
      p.type === 'input_image' ? { type: 'image', image: p.image_url ?? '' } : { type: 'text', text: p.text ?? '' },
  );
}

/**
 * The items of a compacted window as our messages, in order: user and system messages as
 * they are, a function_call_output as a tool result, and each run of assistant-side items
 * (text, reasoning, compaction, function calls) as one assistant message whose parts keep
 * the items' order. Item types this library does not know are left out.
 */
export function responsesWindow(items: readonly ResponsesOutputItem[], provider: string): Message[] {
  const out: Message[] = [];
  let assistant: (AssistantMessage & { content: AssistantPart[] }) | undefined;
  const open = () => {
    if (assistant === undefined) {
      assistant = { role: 'assistant', content: [] };
      out.push(assistant);
    }
    return assistant;
  };
  for (const item of items) {
    if (item.type === 'message' && item.role === 'assistant') {
      const { text } = responsesMessageText(item);
      if (text !== '') open().content.push({ type: 'text', text });
    } else if (item.type === 'message') {
      assistant = undefined;
      if (item.role === 'system' || item.role === 'developer')
        out.push({ role: 'system', content: responsesMessageText(item).text });
      else out.push({ role: 'user', content: userContent(item) });
    } else if (item.type === 'function_call') {
      const message = open();
      message.toolCalls = [...(message.toolCalls ?? []), responsesToolCall(item, message.toolCalls?.length ?? 0)];
    } else if (item.type === 'function_call_output') {
      assistant = undefined;
      const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? '');
      out.push({ role: 'tool', toolCallId: item.call_id ?? '', content: output });
    } else {
      const part = responsesNativePart(item, provider);
      if (part !== undefined) open().content.push(part);
    }
  }
  return out;
}

/** What /v1/responses/compact answered, as the window that replaces the messages sent; a window without a compaction item is an error. */
export function fromResponsesCompacted(
  compacted: ResponsesCompacted,
  provider: string,
  where: string,
): ProviderCompactionResponse {
  const messages = responsesWindow(compacted.output ?? [], provider);
  const compactions = messages.filter(
    (m) => m.role === 'assistant' && typeof m.content !== 'string' && m.content.some((p) => p.type === 'compaction'),
  );
  if (compactions.length === 0) {
    throw new LoushoError(
      'LOUSHO_PROVIDER_FAILED',
      `${where} answered the compaction without a compaction item: ${redactText(JSON.stringify(compacted).slice(0, 300))}`,
      { details: { provider } },
    );
  }
  return { messages, usage: responsesUsage(compacted.usage) };
}
