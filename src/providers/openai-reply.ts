import type { ModelResponse } from '../contracts/model-response.js';
import { LoushoError } from '../errors/lousho-error.js';
import { redactText } from '../errors/redact.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { AssistantPart, ToolCall } from '../messages/types.js';
import { openAIFinishReason } from './openai-finish-reason.js';
import { type OpenAIChatUsage, openAIUsage } from './openai-usage.js';

/** A tool call of a chat completion as it arrives (every field may be missing on odd servers). */
export interface OpenAIReplyToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** A whole chat completion (only what this library reads). */
export interface OpenAIChatCompletion {
  model?: string;
  choices?: {
    message?: {
      content?: string | null;
      tool_calls?: OpenAIReplyToolCall[] | null;
      /** The model's reasoning (xAI, DeepSeek, vLLM). */
      reasoning_content?: string | null;
      /** The model's reasoning (OpenRouter, Ollama). */
      reasoning?: string | null;
      /** The model's reasoning, as some servers name it. */
      thinking?: string | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: OpenAIChatUsage | null;
}

/** The tool calls of a reply as ours; a call without an id gets `call_<index>`. */
export function openAIToolCalls(calls: readonly OpenAIReplyToolCall[] | null | undefined): ToolCall[] {
  return (calls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i}`,
    name: c.function?.name ?? '',
    arguments: parseToolArguments(c.function?.arguments ?? ''),
  }));
}

/**
 * The first choice of a completion as our response; `where` ('openai/gpt-4o') names the
 * model in the error for a reply without one. Reasoning the server returned
 * (`reasoning_content`, `reasoning` or `thinking`) becomes a reasoning part before the text,
 * tagged with `provider`, and is never part of `text`.
 */
export function fromOpenAICompletion(
  completion: OpenAIChatCompletion,
  where: string,
  provider = 'openai-compatible',
): ModelResponse {
  const choice = completion.choices?.[0];
  if (choice === undefined) {
    throw new LoushoError(
      'LOUSHO_PROVIDER_FAILED',
      `${where} answered without a choice: ${redactText(JSON.stringify(completion).slice(0, 500))}`,
    );
  }
  const text = choice.message?.content ?? '';
  const reasoning = choice.message?.reasoning_content || choice.message?.reasoning || choice.message?.thinking;
  const parts: AssistantPart[] | undefined = reasoning
    ? [{ type: 'reasoning', text: reasoning, provider }, ...(text === '' ? [] : [{ type: 'text' as const, text }])]
    : undefined;
  return {
    text,
    toolCalls: openAIToolCalls(choice.message?.tool_calls),
    finishReason: openAIFinishReason(choice.finish_reason),
    usage: openAIUsage(completion.usage),
    ...(completion.model === undefined ? {} : { modelId: completion.model }),
    ...(parts === undefined ? {} : { parts }),
  };
}
