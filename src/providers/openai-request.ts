import type { ModelRequest, ReasoningOptions } from '../contracts/model-request.js';
import { withChatCacheBreakpoints } from './openai-cache-control.js';
import { type ChatCacheControl, type ChatMessage, type ReasoningReturn, toChatMessages } from './openai-messages.js';
import type { PromptCacheMemory } from './prompt-cache-memory.js';
import { type PromptCacheRetention, promptCacheRetentionField } from './prompt-cache-option.js';
import { closeObjectSchemas, isStrictSchema } from './strict-schema.js';
import { wireCacheKey } from './wire-cache-key.js';

/** How a chat-completions server takes the options the wire format leaves to each vendor. */
export interface ChatRequestSettings {
  /** The body field of the output limit: OpenAI's own API wants 'max_completion_tokens'. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /**
   * How reasoning options are sent: 'reasoning_effort' (OpenAI, xAI, DeepSeek, Groq) sends the
   * effort; 'reasoning' (OpenRouter) sends `reasoning: { effort }` or `reasoning: { max_tokens }`.
   */
  reasoningParameter?: 'reasoning_effort' | 'reasoning';
  /** Where the request's cacheKey goes: OpenAI's `prompt_cache_key`, OpenRouter's `session_id`; not sent when absent. */
  cacheKeyField?: 'prompt_cache_key' | 'session_id';
  /** Anthropic-style cache breakpoints on content parts, for the models it says yes to (OpenRouter's anthropic/*). */
  cacheBreakpoints?: ChatCacheControl;
  /** What the conversation's earlier requests cached (see PromptCacheMemory), for the breakpoints that reuse it. */
  cacheMemory?: PromptCacheMemory | undefined;
  /** The time the request is sent, for the cache's TTL (default: now). */
  now?: number;
  /** Where reasoning this provider wrote goes back; never sent when absent. */
  reasoningReturn?: ReasoningReturn;
  /** `prompt_cache_retention` (OpenAI), when the provider's options give one. */
  promptCacheRetention?: PromptCacheRetention;
}

/**
 * OpenRouter's reasoning object: the effort, or the token budget when only that is given;
 * for an Anthropic model the budget first, which is what Anthropic itself takes.
 */
function openRouterReasoning(reasoning: ReasoningOptions, modelId: string) {
  const { effort, budgetTokens } = reasoning;
  const budgetFirst = modelId.startsWith('anthropic/');
  if (budgetTokens !== undefined && (budgetFirst || effort === undefined)) return { max_tokens: budgetTokens };
  return effort === undefined ? undefined : { effort };
}

function reasoningFields(request: ModelRequest, modelId: string, settings: ChatRequestSettings) {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return {};
  if (settings.reasoningParameter === 'reasoning') {
    const value = openRouterReasoning(reasoning, modelId);
    return value === undefined ? {} : { reasoning: value };
  }
  return reasoning.effort === undefined ? {} : { reasoning_effort: reasoning.effort };
}

/** The messages with their breakpoints placed from what the memory says the cache holds, and the memory told. */
function chatBreakpoints(
  request: ModelRequest,
  messages: ChatMessage[],
  mark: ChatCacheControl,
  settings: ChatRequestSettings,
): ChatMessage[] {
  const memory = settings.cacheMemory;
  const now = settings.now ?? Date.now();
  const { messages: marked, places } = withChatCacheBreakpoints(messages, mark, memory?.places(request.messages, now));
  memory?.record(request.messages, places, now);
  return marked;
}

/** The request body of one chat-completions call (without `stream`). */
export function chatRequestBody(request: ModelRequest, modelId: string, settings: ChatRequestSettings) {
  const messages = toChatMessages(request.messages, settings.reasoningReturn);
  return {
    model: modelId,
    messages:
      settings.cacheBreakpoints === undefined
        ? messages
        : chatBreakpoints(request, messages, settings.cacheBreakpoints, settings),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((t) => ({
            type: 'function' as const,
            function: {
              name: t.name,
              ...(t.description === undefined ? {} : { description: t.description }),
              parameters: closeObjectSchemas(t.parameters),
            },
          })),
        }),
    ...(request.maxOutputTokens === undefined ? {} : { [settings.maxTokensField]: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...reasoningFields(request, modelId, settings),
    ...promptCacheRetentionField(settings.promptCacheRetention),
    ...(settings.cacheKeyField === undefined || request.cacheKey === undefined
      ? {}
      : { [settings.cacheKeyField]: wireCacheKey(request.cacheKey) }),
    ...(request.outputSchema === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: 'output', schema: request.outputSchema, strict: isStrictSchema(request.outputSchema) },
          },
        }),
  };
}
