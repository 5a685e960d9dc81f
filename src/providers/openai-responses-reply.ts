import type { FinishReason, ModelResponse } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantPart, ProviderCompactionPart, ReasoningPart, ToolCall } from '../messages/types.js';
import type { ResponsesOutputItem, ResponsesResponse, ResponsesUsage } from './openai-responses-api-types.js';

const count = (n: number | null | undefined): number | undefined => (typeof n === 'number' ? n : undefined);

/** Responses usage in our terms: input counts the cached tokens too, output the reasoning tokens; unknown is undefined. */
export function responsesUsage(usage: ResponsesUsage | null | undefined): Usage {
  const reasoning = count(usage?.output_tokens_details?.reasoning_tokens);
  return {
    inputTokens: count(usage?.input_tokens),
    outputTokens: count(usage?.output_tokens),
    cachedInputTokens: count(usage?.input_tokens_details?.cached_tokens),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/**
 * Why a response ended: 'length' or 'content-filter' for an incomplete one (max_output_tokens,
 * content_filter), 'content-filter' for a refusal, 'tool-calls' when it called tools, else 'stop'.
 */
export function responsesFinishReason(
  response: ResponsesResponse | undefined,
  toolCalls: number,
  refused: boolean,
): FinishReason {
  if (response?.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    return reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
  }
  if (refused) return 'content-filter';
  if (toolCalls > 0) return 'tool-calls';
  return response === undefined || response.status === 'completed' || response.status == null ? 'stop' : 'other';
}

/** A reasoning or compaction item as our part, carrying what must go back unchanged (id, encrypted content); else undefined. */
export function responsesNativePart(
  item: ResponsesOutputItem,
  provider: string,
): ReasoningPart | ProviderCompactionPart | undefined {
  const id = item.id === undefined ? {} : { id: item.id };
  const encrypted = typeof item.encrypted_content === 'string' ? { encrypted: item.encrypted_content } : {};
  if (item.type === 'reasoning') {
    const text = (item.summary ?? [])
      .map((s) => s.text ?? '')
      .filter((t) => t !== '')
      .join('\n\n');
    return { type: 'reasoning', text, ...encrypted, provider, ...id };
  }
  if (item.type === 'compaction') return { type: 'compaction', ...encrypted, provider, ...id };
  return undefined;
}

/** A function_call item as our tool call. */
export function responsesToolCall(item: ResponsesOutputItem, index: number): ToolCall {
  return {
    id: item.call_id ?? item.id ?? `call_${index}`,
    name: item.name ?? '',
    arguments: parseToolArguments(item.arguments ?? ''),
  };
}

/** A message item's phase, when the model wrote one. */
export function messagePhase(item: ResponsesOutputItem): 'commentary' | 'final_answer' | undefined {
  return item.phase === 'commentary' || item.phase === 'final_answer' ? item.phase : undefined;
}

/** The text of a message item's content: its output_text parts joined; `refused` when it holds a refusal instead. */
export function responsesMessageText(item: ResponsesOutputItem): { text: string; refused: boolean } {
  if (typeof item.content === 'string') return { text: item.content, refused: false };
  let text = '';
  let refused = false;
  for (const part of item.content ?? []) {
    if (part.type === 'refusal') {
      refused = true;
      text += part.refusal ?? '';
    } else text += part.text ?? '';
  }
  return { text, refused };
}

/**
 * A whole response as our reply: its message text, its function calls as tool calls, its
 * usage (cached and reasoning tokens apart) and, when it holds reasoning or compaction items
 * or messages with a phase, every part in order as `parts`. A message whose phase is
 * 'commentary' is a text part of its own and not part of `text`, which is the answer.
 */
export function fromResponsesResponse(response: ResponsesResponse, provider: string): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  const parts: AssistantPart[] = [];
  let rich = false;
  let refused = false;
  for (const item of response.output ?? []) {
    if (item.type === 'message') {
      const message = responsesMessageText(item);
      refused ||= message.refused;
      const phase = messagePhase(item);
      // Commentary is a part of its own; the reply's text is the answer.
      if (phase !== 'commentary') text += message.text;
      if (message.text !== '')
        parts.push({ type: 'text', text: message.text, ...(phase === undefined ? {} : { phase }) });
      if (phase !== undefined) rich = true;
    } else if (item.type === 'function_call') toolCalls.push(responsesToolCall(item, toolCalls.length));
    else {
      const part = responsesNativePart(item, provider);
      if (part !== undefined) {
        parts.push(part);
        rich = true;
      }
    }
  }
  return {
    text,
    toolCalls,
    finishReason: responsesFinishReason(response, toolCalls.length, refused),
    usage: responsesUsage(response.usage),
    ...(response.model === undefined ? {} : { modelId: response.model }),
    ...(rich ? { parts } : {}),
  };
}
