import type { ModelResponse } from '../contracts/model-response.js';
import type { ToolCall } from '../messages/types.js';
import type { AnthropicReply } from './anthropic-api-types.js';
import { anthropicFinishReason } from './anthropic-finish-reason.js';
import { anthropicUsage } from './anthropic-usage.js';

/** A whole Messages API reply as our response: its text blocks joined, its tool_use blocks as tool calls. */
export function fromAnthropicReply(reply: AnthropicReply): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of reply.content ?? []) {
    if (block.type === 'text') text += block.text ?? '';
    else if (block.type === 'tool_use')
      toolCalls.push({
        id: block.id ?? `toolu_${toolCalls.length}`,
        name: block.name ?? '',
        arguments: block.input ?? {},
      });
  }
  return {
    text,
    toolCalls,
    finishReason: anthropicFinishReason(reply.stop_reason),
    usage: anthropicUsage(reply.usage),
    ...(reply.model === undefined ? {} : { modelId: reply.model }),
  };
}
