import type { ModelRequest } from '../contracts/model-request.js';
import type { ResponsesFunctionTool, ResponsesRequestBody } from './openai-responses-api-types.js';
import { toResponsesInput } from './openai-responses-input.js';
import { type PromptCacheRetention, promptCacheRetentionField } from './prompt-cache-option.js';
import { checkReasoningOptions } from './reasoning-options.js';
import { closeObjectSchemas, isStrictSchema } from './strict-schema.js';
import { wireCacheKey } from './wire-cache-key.js';

/** How OpenAI shows a reasoning model's thinking: a summary of the given length. */
export type ResponsesReasoningSummary = 'auto' | 'concise' | 'detailed';

/** What the provider's options add to every request body. */
export interface ResponsesRequestSettings {
  /** The provider name its reasoning and compaction parts carry. */
  provider: string;
  /** `store`: false keeps nothing on OpenAI's side (reasoning then travels encrypted). */
  store: boolean;
  /** Ask for `reasoning.encrypted_content`; by the model id (reasoning models) when undefined. */
  encryptedReasoning: boolean | undefined;
  /** `reasoning.summary`, when set. */
  reasoningSummary: ResponsesReasoningSummary | undefined;
  /** Passed through as the body's `context_management` (server-side compaction). */
  contextManagement: unknown;
  /** Send the request's cache key (hashed) as `prompt_cache_key`. */
  promptCacheKey: boolean;
  /** `prompt_cache_retention`, when the provider's options give one. */
  promptCacheRetention?: PromptCacheRetention | undefined;
}

/** The body's `prompt_cache_key`: the request's cache key, hashed, unless the provider's promptCache is false. */
export function promptCacheKeyOf(request: ModelRequest, settings: { promptCacheKey: boolean }) {
  return request.cacheKey === undefined || !settings.promptCacheKey
    ? {}
    : { prompt_cache_key: wireCacheKey(request.cacheKey) };
}

/** Whether a model id names one of OpenAI's reasoning models (o-series, GPT-5 and later, Codex), whose reasoning items can travel encrypted. */
export function isReasoningModel(modelId: string): boolean {
  const id = modelId.toLowerCase();
  return /^(o\d|gpt-([5-9]|\d\d)|codex)/.test(id) && !/-chat\b/.test(id);
}

function reasoningOf(request: ModelRequest, settings: ResponsesRequestSettings) {
  const effort = checkReasoningOptions(request.reasoning, 'OpenAI Responses request')?.effort;
  const summary = settings.reasoningSummary;
  if (effort === undefined && summary === undefined) return {};
  return {
    reasoning: { ...(effort === undefined ? {} : { effort }), ...(summary === undefined ? {} : { summary }) },
  };
}

/**
 * The body of one POST /v1/responses: the transcript as input items, the function tools,
 * `store` (false by default) and, for a reasoning model that stores nothing, `include:
 * ['reasoning.encrypted_content']` so its reasoning items can be sent back on the next
 * request; the reasoning effort, the output schema as `text.format`, the run's cache key as
 * `prompt_cache_key`.
 */
export function toResponsesRequest(
  request: ModelRequest,
  modelId: string,
  settings: ResponsesRequestSettings,
): ResponsesRequestBody {
  const tools = (request.tools ?? []).map(
    (t): ResponsesFunctionTool => ({
      type: 'function',
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      parameters: closeObjectSchemas(t.parameters) as Record<string, unknown>,
      strict: isStrictSchema(closeObjectSchemas(t.parameters)),
    }),
  );
  const encrypted = !settings.store && (settings.encryptedReasoning ?? isReasoningModel(modelId));
  const schema = request.outputSchema;
  return {
    model: modelId,
    input: toResponsesInput(request.messages, { provider: settings.provider, store: settings.store }),
    store: settings.store,
    ...(tools.length === 0 ? {} : { tools }),
    ...(request.maxOutputTokens === undefined ? {} : { max_output_tokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...reasoningOf(request, settings),
    ...(encrypted ? { include: ['reasoning.encrypted_content'] } : {}),
    ...(schema === undefined
      ? {}
      : {
          text: {
            format: {
              type: 'json_schema' as const,
              name: 'output',
              schema: schema as Record<string, unknown>,
              strict: isStrictSchema(schema),
            },
          },
        }),
    ...promptCacheKeyOf(request, settings),
    ...promptCacheRetentionField(settings.promptCacheRetention),
    ...(settings.contextManagement === undefined ? {} : { context_management: settings.contextManagement }),
  };
}
