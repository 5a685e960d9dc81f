import type { ModelStreamPart } from '../contracts/model-response.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AnthropicReplyBlock, AnthropicStreamEvent, AnthropicUsage } from './anthropic-api-types.js';
import { anthropicFinishReason } from './anthropic-finish-reason.js';
import { OUTPUT_TOOL_NAME, outputToolText } from './anthropic-output-format.js';
import { anthropicNativePart } from './anthropic-reply.js';
import { ANTHROPIC_USAGE_FIELDS, anthropicUsage } from './anthropic-usage.js';

/**
 * Turns the events of a streamed reply into stream parts: text deltas as they come, each
 * tool call when its block stops, and the finish part from finish() after message_stop.
 */
export class AnthropicStreamParser {
  private readonly tools = new Map<number, { id: string; name: string; json: string; input: unknown }>();
  /** Thinking, redacted_thinking and compaction blocks being streamed, by index. */
  private readonly native = new Map<number, AnthropicReplyBlock>();
  private usage: AnthropicUsage = {};
  private stopReason: string | null | undefined;
  private model: string | undefined;
  /** True once message_stop arrived. */
  stopped = false;
  /** Whether the reply called the final-answer tool, and whether it called another tool. */
  private answered = false;
  private called = false;

  accept(event: AnthropicStreamEvent): ModelStreamPart[] {
    const index = event.index ?? 0;
    switch (event.type) {
      case 'message_start':
        this.model = event.message?.model;
        this.mergeUsage(event.message?.usage);
        return [];
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text' && block.text !== undefined && block.text !== '')
          return [{ type: 'text-delta', text: block.text }];
        if (block !== undefined && anthropicNativePart(block) !== undefined) {
          this.native.set(index, { ...block });
          const text = block.type === 'thinking' ? (block.thinking ?? '') : '';
          return text === '' ? [] : [{ type: 'reasoning-delta', text }];
        }
        if (block?.type === 'tool_use') {
          this.tools.set(index, {
            id: block.id ?? `toolu_${index}`,
            name: block.name ?? '',
            json: '',
            input: block.input,
          });
        }
        return [];
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text !== undefined && delta.text !== '')
          return [{ type: 'text-delta', text: delta.text }];
        const native = this.native.get(index);
        if (native !== undefined && delta !== undefined) return nativeDelta(native, delta);
        const tool = this.tools.get(index);
        if (delta?.type === 'input_json_delta' && tool !== undefined) tool.json += delta.partial_json ?? '';
        return [];
      }
      case 'content_block_stop': {
        const native = this.native.get(index);
        if (native !== undefined) {
          this.native.delete(index);
          const part = anthropicNativePart(native);
          return part === undefined ? [] : [{ type: 'content-part', part }];
        }
        const tool = this.tools.get(index);
        if (tool === undefined) return [];
        this.tools.delete(index);
        const input = tool.json === '' ? (tool.input ?? {}) : parseToolArguments(tool.json);
        if (tool.name === OUTPUT_TOOL_NAME) {
          this.answered = true;
          return [{ type: 'text-delta', text: outputToolText(input) }];
        }
        this.called = true;
        return [{ type: 'tool-call', toolCall: { id: tool.id, name: tool.name, arguments: input } }];
      }
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.stopReason = event.delta.stop_reason;
        this.mergeUsage(event.usage);
        return [];
      case 'message_stop':
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  /**
   * The finish part: the stop reason and the usage of message_start updated by message_delta,
   * whose counts are cumulative (Anthropic's streaming docs): each field it carries replaces
   * message_start's, and its `iterations`, when the request ran several, give the whole bill.
   */
  finish(): Extract<ModelStreamPart, { type: 'finish' }> {
    return {
      type: 'finish',
      finishReason:
        this.answered && !this.called && this.stopReason === 'tool_use'
          ? 'stop'
          : anthropicFinishReason(this.stopReason),
      usage: anthropicUsage(this.usage),
      ...(this.model === undefined ? {} : { modelId: this.model }),
    };
  }

  private mergeUsage(usage: AnthropicUsage | null | undefined): void {
    if (usage === undefined || usage === null) return;
    const next: AnthropicUsage = { ...this.usage };
    for (const key of ANTHROPIC_USAGE_FIELDS) {
      const value = usage[key];
      if (typeof value === 'number') next[key] = value;
    }
    if (typeof usage.output_tokens_details?.thinking_tokens === 'number')
      next.output_tokens_details = { thinking_tokens: usage.output_tokens_details.thinking_tokens };
    if (usage.cache_creation !== undefined && usage.cache_creation !== null) next.cache_creation = usage.cache_creation;
    // message_delta's counts are the last iteration's alone when the request ran several (a
    // compaction first): its iterations carry them all, and anthropicUsage() sums them.
    if (Array.isArray(usage.iterations) && usage.iterations.length > 0) next.iterations = usage.iterations;
    this.usage = next;
  }
}

/** Adds a thinking_delta, signature_delta or compaction_delta to its block; a thinking delta is also reported. */
function nativeDelta(block: AnthropicReplyBlock, delta: NonNullable<AnthropicStreamEvent['delta']>): ModelStreamPart[] {
  if (delta.type === 'thinking_delta' && delta.thinking !== undefined) {
    block.thinking = (block.thinking ?? '') + delta.thinking;
    return delta.thinking === '' ? [] : [{ type: 'reasoning-delta', text: delta.thinking }];
  }
  if (delta.type === 'signature_delta' && delta.signature !== undefined)
    block.signature = (block.signature ?? '') + delta.signature;
  if (delta.type === 'compaction_delta' && typeof delta.content === 'string')
    block.content = (block.content ?? '') + delta.content;
  return [];
}
