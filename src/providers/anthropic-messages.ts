import { anthropicImageBlock } from '../converters/anthropic-image.js';
import { contentText } from '../messages/content.js';
import { toolArgumentsObject } from '../messages/tool-arguments.js';
import type { AssistantPart, ContentPart, Message, ProviderCompactionPart, ReasoningPart } from '../messages/types.js';
import type {
  AnthropicAssistantBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicUserBlock,
} from './anthropic-api-types.js';

/** The provider name reasoning and compaction parts carry when this provider wrote them. */
export const PROVIDER = 'anthropic';

/**
 * The blocks of an assistant message's content, in order: its text, and the thinking,
 * redacted_thinking and compaction blocks this provider wrote, sent back unchanged (a
 * thinking block with its signature; the API requires them in a turn that used tools).
 * Reasoning another provider wrote is not sent.
 */
function assistantBlocks(content: string | readonly AssistantPart[]): AnthropicAssistantBlock[] {
  const parts: readonly AssistantPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const blocks: AnthropicAssistantBlock[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      if (part.text.trim() !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.provider === PROVIDER) {
      const block = nativeBlock(part);
      if (block !== undefined) blocks.push(block);
    }
  }
  return blocks;
}

function nativeBlock(part: ReasoningPart | ProviderCompactionPart): AnthropicAssistantBlock | undefined {
  if (part.type === 'compaction')
    return {
      type: 'compaction',
      content: part.text ?? null,
      ...(part.signature === undefined ? {} : { signature: part.signature }),
    };
  if (part.signature !== undefined) return { type: 'thinking', thinking: part.text, signature: part.signature };
  if (part.encrypted !== undefined) return { type: 'redacted_thinking', data: part.encrypted };
  return undefined;
}

function userBlocks(
  content: string | readonly ContentPart[],
  index: number,
): (AnthropicTextBlock | AnthropicImageBlock)[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
  for (const part of content) {
    if (part.type === 'image') blocks.push(anthropicImageBlock(part, index, 'Anthropic request'));
    else if (part.text !== '') blocks.push({ type: 'text', text: part.text });
  }
  return blocks;
}

function toolResult(m: Extract<Message, { role: 'tool' }>, index: number): AnthropicToolResultBlock {
  const hasImage = typeof m.content !== 'string' && m.content.some((p) => p.type === 'image');
  const content = hasImage ? userBlocks(m.content, index) : contentText(m.content);
  return {
    type: 'tool_result',
    tool_use_id: m.toolCallId,
    ...(content === '' ? {} : { content }),
    is_error: m.isError === true,
  };
}

interface Pending {
  role: 'user' | 'assistant';
  blocks: (AnthropicUserBlock | AnthropicAssistantBlock)[];
  sources: number[];
}

/**
 * Our transcript in the Messages API format: leading system messages become `system`,
 * later ones user text prefixed "[system] "; tool results become tool_result blocks of a
 * user message; consecutive messages of one role are merged (tool_result blocks first, as
 * the API requires); empty messages are dropped. `metadata` is never sent.
 */
export function toAnthropicMessages(messages: readonly Message[]): {
  system: string | undefined;
  messages: AnthropicMessage[];
  sources: number[][];
} {
  const system: string[] = [];
  const out: Pending[] = [];
  let leading = true;
  const add = (role: Pending['role'], blocks: Pending['blocks'], index: number) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    const target = last?.role === role ? last : { role, blocks: [], sources: [] };
    if (target !== last) out.push(target);
    target.blocks.push(...blocks);
    target.sources.push(...blocks.map(() => index));
  };
  messages.forEach((m, index) => {
    if (m.role === 'system') {
      if (leading) system.push(m.content);
      else add('user', [{ type: 'text', text: `[system] ${m.content}` }], index);
      return;
    }
    leading = false;
    if (m.role === 'user') add('user', userBlocks(m.content, index), index);
    else if (m.role === 'tool') add('user', [toolResult(m, index)], index);
    else {
      const calls: AnthropicToolUseBlock[] = (m.toolCalls ?? []).map((c) => ({
        type: 'tool_use',
        id: c.id,
        name: c.name,
        input: toolArgumentsObject(c.arguments),
      }));
      add('assistant', [...assistantBlocks(m.content), ...calls], index);
    }
  });
  const wire: AnthropicMessage[] = [];
  const sources: number[][] = [];
  for (const p of out) {
    const order = p.blocks.map((_, i) => i);
    if (p.role === 'user') {
      // tool_result blocks must open the user message that follows the tool_use blocks.
      const first = (i: number) => (p.blocks[i]?.type === 'tool_result' ? 0 : 1);
      order.sort((a, b) => first(a) - first(b) || a - b);
    }
    const blocks = order.map((i) => p.blocks[i]);
    sources.push(order.map((i) => p.sources[i] ?? 0));
    wire.push(
      p.role === 'user'
        ? { role: 'user', content: blocks as AnthropicUserBlock[] }
        : { role: 'assistant', content: blocks as AnthropicAssistantBlock[] },
    );
  }
  const text = system.filter((s) => s !== '').join('\n\n');
  return { system: text === '' ? undefined : text, messages: wire, sources };
}
