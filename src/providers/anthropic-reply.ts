import type { ModelResponse } from '../contracts/model-response.js';
import type { AssistantPart, ProviderCompactionPart, ReasoningPart, ToolCall } from '../messages/types.js';
import type { AnthropicReply, AnthropicReplyBlock } from './anthropic-api-types.js';
import { anthropicFinishReason } from './anthropic-finish-reason.js';
import { PROVIDER } from './anthropic-messages.js';
import { anthropicUsage } from './anthropic-usage.js';

/** A thinking, redacted_thinking or compaction block as our part (carrying what must come back), else undefined. */
export function anthropicNativePart(block: AnthropicReplyBlock): ReasoningPart | ProviderCompactionPart | undefined {
  if (block.type === 'thinking')
    return {
      type: 'reasoning',
      text: block.thinking ?? '',
      ...(block.signature === undefined ? {} : { signature: block.signature }),
      provider: PROVIDER,
    };
  if (block.type === 'redacted_thinking')
    return {
      type: 'reasoning',
      text: '',
      ...(block.data === undefined ? {} : { encrypted: block.data }),
      provider: PROVIDER,
    };
  if (block.type === 'compaction')
    return {
      type: 'compaction',
      ...(typeof block.content === 'string' ? { text: block.content } : {}),
      ...(block.signature === undefined ? {} : { signature: block.signature }),
      provider: PROVIDER,
    };
  return undefined;
}

/**
 * A whole Messages API reply as our response: its text blocks joined, its tool_use blocks as
 * tool calls, and, when it has thinking or compaction blocks, every block in order as `parts`.
 */
export function fromAnthropicReply(reply: AnthropicReply): ModelResponse {
  let text = '';
  const toolCalls: ToolCall[] = [];
  const parts: AssistantPart[] = [];
  let rich = false;
  for (const block of reply.content ?? []) {
    if (block.type === 'text') {
      text += block.text ?? '';
      parts.push({ type: 'text', text: block.text ?? '' });
    } else if (block.type === 'tool_use')
      toolCalls.push({
        id: block.id ?? `toolu_${toolCalls.length}`,
        name: block.name ?? '',
        arguments: block.input ?? {},
      });
    else {
      const part = anthropicNativePart(block);
      if (part !== undefined) {
        parts.push(part);
        rich = true;
      }
    }
  }
  return {
    text,
    toolCalls,
    finishReason: anthropicFinishReason(reply.stop_reason),
    usage: anthropicUsage(reply.usage),
    ...(reply.model === undefined ? {} : { modelId: reply.model }),
    ...(rich ? { parts } : {}),
  };
}
