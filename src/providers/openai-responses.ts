import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import type { ProviderCompactionResponse } from '../contracts/provider-compaction.js';
import { checkOptions } from '../errors/check-options.js';
import { abortedError, configError, LoushoError } from '../errors/lousho-error.js';
import { isAborted } from './abortable.js';
import { openAIClientLoader } from './openai-client.js';
import type { OpenAICallContext } from './openai-error.js';
import type { ResponsesCompacted, ResponsesResponse, ResponsesStreamEvent } from './openai-responses-api-types.js';
import { fromResponsesCompacted, toResponsesCompactBody } from './openai-responses-compact.js';
import { responsesError, responsesFailure } from './openai-responses-error.js';
import { fromResponsesResponse } from './openai-responses-reply.js';
import {
  type ResponsesReasoningSummary,
  type ResponsesRequestSettings,
  toResponsesRequest,
} from './openai-responses-request.js';
import { ResponsesStreamParser } from './openai-responses-stream-parser.js';
import { checkPromptCacheRetention, type PromptCacheRetention } from './prompt-cache-option.js';
import { checkTimeoutOptions, TIMEOUT_OPTION_KEYS, type TimeoutOptions, withTimeouts } from './request-timeout.js';
import { checkRetryOptions, type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/** Options of {@link createOpenAIResponses}. */
export interface OpenAIResponsesOptions extends TimeoutOptions {
  /** The provider name on usage, errors and the reasoning it writes. Default 'openai'. */
  name?: string;
  /** The API's base URL; process.env.OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  /** The API key; read from the `apiKeyEnv` variable when absent. */
  apiKey?: string;
  /** The environment variable that holds the key. Default 'OPENAI_API_KEY'. */
  apiKeyEnv?: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Retries of 429 and 5xx answers. */
  retry?: RetryOptions;
  /**
   * `store`: false (the default) keeps no response on OpenAI's side; a reasoning model's
   * reasoning items then come encrypted and go back unchanged in the next request's input.
   */
  store?: boolean;
  /**
   * Ask for encrypted reasoning (`include: ['reasoning.encrypted_content']`) when `store` is
   * false. Default: for reasoning models (o-series, GPT-5 and later, Codex), by the model id.
   */
  encryptedReasoning?: boolean;
  /** `reasoning.summary`: ask a reasoning model for a summary of its reasoning, streamed as reasoning deltas. Default none. */
  reasoningSummary?: ResponsesReasoningSummary;
  /**
   * Server-side compaction inside each response, sent as the body's `context_management`,
   * e.g. `[{ type: 'compaction', compact_threshold: 200_000 }]`. Compaction items in replies
   * become compaction parts of the assistant message and go back unchanged.
   */
  contextManagement?: unknown;
  /** `false` sends no `prompt_cache_key` (by default the run's or session's cache key, hashed, routes OpenAI's prompt cache). */
  promptCache?: boolean;
  /**
   * `prompt_cache_retention`: '24h' keeps the prompt cache up to a day (OpenAI's extended
   * retention, on the models that offer it), 'in_memory' is OpenAI's default. Not sent when absent.
   */
  promptCacheRetention?: PromptCacheRetention;
}

interface ResponsesClient {
  responses: { create(body: unknown, options: { signal?: AbortSignal }): Promise<unknown> };
  post(path: string, options: { body: unknown; signal?: AbortSignal }): Promise<unknown>;
}

const SUMMARIES: readonly ResponsesReasoningSummary[] = ['auto', 'concise', 'detailed'];

function checkResponsesOptions(options: OpenAIResponsesOptions): void {
  checkOptions<OpenAIResponsesOptions>(options, 'createOpenAIResponses()', [
    'name',
    'baseURL',
    'apiKey',
    'apiKeyEnv',
    'headers',
    'retry',
    'store',
    'encryptedReasoning',
    'reasoningSummary',
    'contextManagement',
    'promptCache',
    'promptCacheRetention',
    ...TIMEOUT_OPTION_KEYS,
  ]);
  checkRetryOptions(options.retry);
  checkTimeoutOptions(options, 'createOpenAIResponses()');
  checkPromptCacheRetention(options.promptCacheRetention, 'createOpenAIResponses()');
  for (const key of ['store', 'encryptedReasoning', 'promptCache'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean')
      throw configError(`createOpenAIResponses(): ${key} must be true or false, got ${String(options[key])}.`, {
        option: key,
      });
  }
  if (options.reasoningSummary !== undefined && !SUMMARIES.includes(options.reasoningSummary))
    throw configError(
      `createOpenAIResponses(): reasoningSummary must be one of ${SUMMARIES.join(', ')}, got ${String(options.reasoningSummary)}.`,
      { option: 'reasoningSummary' },
    );
}

/**
 * OpenAI's Responses API (POST /v1/responses) through the official `openai` package, loaded
 * on the first call: function tools, streaming, usage with cached and reasoning tokens,
 * encrypted reasoning items carried between turns with `store: false`, reasoning effort
 * (`reasoning: { effort }` of the agent or the call), structured output as `text.format`,
 * and `compact()` (POST /v1/responses/compact) for `providerCompactionStrategy()`. Also
 * `resolveProvider('openai-responses/<model>')`.
 *
 * @example
 * const provider = createOpenAIResponses({ reasoningSummary: 'auto' })('gpt-5-mini');
 * const agent = createAgent({ provider, reasoning: { effort: 'low' } });
 */
export function createOpenAIResponses(options: OpenAIResponsesOptions = {}): (modelId: string) => LLMProvider {
  checkResponsesOptions(options);
  const name = options.name ?? 'openai';
  const apiKeyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const baseURL = options.baseURL ?? (process.env.OPENAI_BASE_URL || undefined);
  const getClient = openAIClientLoader<ResponsesClient>({
    name,
    baseURL,
    apiKey: options.apiKey,
    apiKeyEnv,
    requireApiKey: true,
    headers: options.headers,
  });
  const settings: ResponsesRequestSettings = {
    provider: name,
    store: options.store ?? false,
    encryptedReasoning: options.encryptedReasoning,
    reasoningSummary: options.reasoningSummary,
    contextManagement: options.contextManagement,
    promptCacheKey: options.promptCache !== false,
    promptCacheRetention: options.promptCacheRetention,
  };
  const retry = options.retry ?? {};

  return (modelId: string): LLMProvider => {
    const context = (signal: AbortSignal | undefined): OpenAICallContext => ({
      name,
      model: modelId,
      apiKeyEnv,
      signal,
    });
    const signalOf = (request: ModelRequest) =>
      request.abortSignal === undefined ? {} : { signal: request.abortSignal };

    async function generateOnce(request: ModelRequest): Promise<ModelResponse> {
      const body = toResponsesRequest(request, modelId, settings);
      const client = await getClient();
      let response: ResponsesResponse;
      try {
        response = (await client.responses.create(body, signalOf(request))) as ResponsesResponse;
      } catch (error) {
        throw responsesError(error, context(request.abortSignal));
      }
      if (response.status === 'failed' || (response.error !== undefined && response.error !== null))
        throw responsesFailure(response.error, context(request.abortSignal));
      return fromResponsesResponse(response, name);
    }

    async function* streamOnce(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const body = { ...toResponsesRequest(request, modelId, settings), stream: true };
      const client = await getClient();
      const parser = new ResponsesStreamParser(name, context(request.abortSignal));
      try {
        const events = (await client.responses.create(body, signalOf(request))) as AsyncIterable<ResponsesStreamEvent>;
        for await (const event of events) yield* parser.accept(event);
      } catch (error) {
        throw responsesError(error, context(request.abortSignal));
      }
      // The client ends the iteration quietly on an abort, and a server may close early.
      if (isAborted(request.abortSignal)) throw abortedError();
      if (!parser.ended) {
        throw new LoushoError(
          'LOUSHO_PROVIDER_FAILED',
          `The stream of ${name}/${modelId} ended before response.completed; the reply is incomplete.`,
          { isRetryable: true, details: { provider: name, model: modelId } },
        );
      }
      yield parser.finish();
    }

    async function compactOnce(request: ModelRequest): Promise<ProviderCompactionResponse> {
      const body = toResponsesCompactBody(request, modelId, settings);
      const client = await getClient();
      let compacted: ResponsesCompacted;
      try {
        compacted = (await client.post('/responses/compact', { body, ...signalOf(request) })) as ResponsesCompacted;
      } catch (error) {
        throw responsesError(error, context(request.abortSignal));
      }
      return fromResponsesCompacted(compacted, name, `${name}/${modelId}`);
    }

    const provider: LLMProvider = {
      provider: name,
      modelId,
      generate: (request) => withRetries(() => generateOnce(request), retry, request.abortSignal),
      stream: (request) => streamWithRetries(() => streamOnce(request), retry, request.abortSignal),
      compact: (request) => withRetries(() => compactOnce(request), retry, request.abortSignal),
    };
    return withTimeouts(provider, options);
  };
}
