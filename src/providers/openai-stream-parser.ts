import type { FinishReason, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import { openAIFinishReason } from './openai-finish-reason.js';
import { type OpenAIChatUsage, openAIUsage } from './openai-usage.js';

/** One chunk of a streamed chat completion (only what this library reads). */
export interface OpenAIChatChunk {
  model?: string;
  choices?: {
    delta?: {
      content?: string | null;
      /** The model's reasoning as xAI, DeepSeek and vLLM stream it. */
      reasoning_content?: string | null;
      /** The model's reasoning as OpenRouter, Ollama and newer vLLM stream it. */
      reasoning?: string | null;
      /** The model's reasoning as some servers name it (Ollama's own field name). */
      thinking?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: OpenAIChatUsage | null;
}

/**
 * Turns the chunks of a streamed chat completion into stream parts: text and reasoning
 * deltas as they come (reasoning is whichever of `reasoning_content`, `reasoning` and
 * `thinking` the server writes, and never answer text) (the reasoning also as one reasoning part, tagged with `provider`, once
 * the text or the calls begin); the tool calls, whose names and arguments arrive in pieces,
 * and the finish part from end() once the stream is over.
 */
export class OpenAIStreamParser {
  private readonly calls = new Map<number, { id?: string; name: string; args: string }>();
  private usage: Usage = { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined };
  private model: string | undefined;
  private reasoning = '';
  /** Set once a chunk carried a finish_reason; a stream that ends without one is incomplete. */
  finishReason: FinishReason | undefined;

  /** `provider`: the name the reasoning part carries, so it goes back only to this provider. */
  constructor(private readonly provider = 'openai-compatible') {}

  /** The reasoning so far as one part, once (before the text or the calls that follow it). */
  private flushReasoning(): ModelStreamPart[] {
    if (this.reasoning === '') return [];
    const part: ModelStreamPart = {
      type: 'content-part',
      part: { type: 'reasoning', text: this.reasoning, provider: this.provider },
    };
    this.reasoning = '';
    return [part];
  }

  accept(chunk: OpenAIChatChunk): ModelStreamPart[] {
    this.model ??= chunk.model;
    if (chunk.usage) this.usage = openAIUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (choice === undefined) return [];
    const out: ModelStreamPart[] = [];
    const thought = choice.delta?.reasoning_content || choice.delta?.reasoning || choice.delta?.thinking;
    if (thought) {
      this.reasoning += thought;
      out.push({ type: 'reasoning-delta', text: thought });
    }
    const text = choice.delta?.content;
    if (text || (choice.delta?.tool_calls?.length ?? 0) > 0) out.push(...this.flushReasoning());
    for (const delta of choice.delta?.tool_calls ?? []) {
      const call = this.calls.get(delta.index) ?? { name: '', args: '' };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
      this.calls.set(delta.index, call);
    }
    if (choice.finish_reason) this.finishReason = openAIFinishReason(choice.finish_reason);
    if (text) out.push({ type: 'text-delta', text });
    return out;
  }

  /** The tool calls in index order, then the finish part (call it when finishReason is set). */
  end(finishReason: FinishReason): ModelStreamPart[] {
    const parts: ModelStreamPart[] = this.flushReasoning();
    const calls: ModelStreamPart[] = [...this.calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, call]) => ({
        type: 'tool-call',
        toolCall: { id: call.id ?? `call_${index}`, name: call.name, arguments: parseToolArguments(call.args) },
      }));
    parts.push(...calls, {
      type: 'finish',
      finishReason,
      usage: this.usage,
      ...(this.model === undefined ? {} : { modelId: this.model }),
    });
    return parts;
  }
}
