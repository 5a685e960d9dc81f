import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { checkOptions } from '../errors/check-options.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { openAIClientLoader } from './openai-client.js';
import { type OpenAICallContext, openAIError } from './openai-error.js';
import { fromOpenAICompletion, type OpenAIChatCompletion } from './openai-reply.js';
import { type ChatRequestSettings, chatRequestBody } from './openai-request.js';
import { type OpenAIChatChunk, OpenAIStreamParser } from './openai-stream-parser.js';
import { CACHE_TTL_MS, PromptCacheMemory } from './prompt-cache-memory.js';
import {
  cacheControlOf,
  checkPromptCache,
  checkPromptCacheRetention,
  type PromptCacheOption,
  type PromptCacheRetention,
} from './prompt-cache-option.js';
import { checkTimeoutOptions, TIMEOUT_OPTION_KEYS, type TimeoutOptions, withTimeouts } from './request-timeout.js';
import { checkRetryOptions, type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/** Settings of a provider that speaks OpenAI's chat-completions API. */
export interface OpenAICompatibleOptions extends TimeoutOptions {
  /** The provider name reported on usage and errors, e.g. 'openai', 'ollama'. Default 'openai-compatible'. */
  name?: string;
  /** The API's base URL, e.g. 'http://127.0.0.1:8000/v1'. */
  baseURL?: string;
  /** The API key; read from the `apiKeyEnv` variable when absent. */
  apiKey?: string;
  /** The environment variable that holds the key, named in errors (e.g. 'OPENAI_API_KEY'). */
  apiKeyEnv?: string;
  /** A missing key is an error before any request (true when apiKeyEnv is set, else false). */
  requireApiKey?: boolean;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Retries of 429 and 5xx answers. */
  retry?: RetryOptions;
  /** Reads the context window the server runs a model with (local servers). */
  contextWindow?: (modelId: string) => Promise<number | undefined>;
  /** The body field of the output limit: OpenAI's own API wants 'max_completion_tokens'. Default 'max_tokens'. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for usage in streamed replies (stream_options.include_usage). Default true. */
  streamUsage?: boolean;
  /**
   * How a request's reasoning options are sent: 'reasoning_effort' (OpenAI, xAI, DeepSeek,
   * Groq: the effort only) or 'reasoning' (OpenRouter: `{ effort }`, or `{ max_tokens }` from
   * budgetTokens). Default 'reasoning_effort'.
   */
  reasoningParameter?: 'reasoning_effort' | 'reasoning';
  /**
   * The assistant message field that carries reasoning this provider received back to it, on
   * turns that called tools (DeepSeek's thinking mode refuses such a turn without its
   * `reasoning_content`); `false` never sends it. Default 'reasoning_content'.
   */
  reasoningField?: 'reasoning_content' | 'reasoning' | false;
  /**
   * Where the run's or session's stable cache key goes (hashed): 'prompt_cache_key' (OpenAI
   * routes its prompt cache by it), 'session_id' (OpenRouter's sticky routing). Not sent when
   * absent: other servers may refuse a field they do not know.
   */
  cacheKeyField?: 'prompt_cache_key' | 'session_id';
  /**
   * The models that take Anthropic-style `cache_control` breakpoints on content parts
   * (OpenRouter's anthropic/*); none when absent.
   */
  cacheControl?: (modelId: string) => boolean;
  /** Prompt caching: on by default (the key and the breakpoints above); `{ ttl: '1h' }` for the breakpoints' TTL; `false` sends neither. */
  promptCache?: PromptCacheOption;
  /**
   * OpenAI's `prompt_cache_retention`: '24h' keeps the prompt cache up to a day (extended
   * retention, on the models that offer it), 'in_memory' is OpenAI's default. Not sent when
   * absent (other servers may refuse the field).
   */
  promptCacheRetention?: PromptCacheRetention;
}

interface ChatClient {
  chat: { completions: { create(body: unknown, options: { signal?: AbortSignal }): Promise<unknown> } };
}

/**
 * A provider for any server that speaks OpenAI's chat-completions API (vLLM, llama.cpp,
 * Together, Groq, ...). Uses the official `openai` package, loaded on the first call.
 *
 * @example
 * const provider = createOpenAICompatible({ baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'x' })('my-model');
 */
export function createOpenAICompatible(options: OpenAICompatibleOptions = {}): (modelId: string) => LLMProvider {
  checkOptions<OpenAICompatibleOptions>(options, `${options?.name ?? 'createOpenAICompatible'}() provider options`, [
    'name',
    'baseURL',
    'apiKey',
    'apiKeyEnv',
    'requireApiKey',
    'headers',
    'retry',
    'contextWindow',
    'maxTokensField',
    'streamUsage',
    'reasoningParameter',
    'reasoningField',
    'cacheKeyField',
    'cacheControl',
    'promptCache',
    'promptCacheRetention',
    ...TIMEOUT_OPTION_KEYS,
  ]);
  checkPromptCache(options.promptCache, `${options?.name ?? 'createOpenAICompatible'}()`);
  checkPromptCacheRetention(options.promptCacheRetention, `${options?.name ?? 'createOpenAICompatible'}()`);
  checkRetryOptions(options.retry);
  checkTimeoutOptions(options, `${options?.name ?? 'createOpenAICompatible'}()`);
  const name = options.name ?? 'openai-compatible';
  const getClient = openAIClientLoader<ChatClient>({
    name,
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv,
    requireApiKey: options.requireApiKey ?? options.apiKeyEnv !== undefined,
    headers: options.headers,
  });

  return (modelId: string): LLMProvider => {
    const context = (signal: AbortSignal | undefined): OpenAICallContext => ({
      name,
      model: modelId,
      apiKeyEnv: options.apiKeyEnv,
      signal,
    });
    const cache = options.promptCache ?? {};
    const reasoningField = options.reasoningField ?? 'reasoning_content';
    const settings: ChatRequestSettings = {
      maxTokensField: options.maxTokensField ?? 'max_tokens',
      reasoningParameter: options.reasoningParameter ?? 'reasoning_effort',
      ...(cache === false || options.cacheKeyField === undefined ? {} : { cacheKeyField: options.cacheKeyField }),
      ...(cache === false || options.cacheControl?.(modelId) !== true
        ? {}
        : { cacheBreakpoints: cacheControlOf(cache) }),
      ...(reasoningField === false ? {} : { reasoningReturn: { provider: name, field: reasoningField } }),
      ...(options.promptCacheRetention === undefined ? {} : { promptCacheRetention: options.promptCacheRetention }),
    };
    // What each run's earlier requests cached, by its transcript, where the model takes breakpoints.
    const memories = new WeakMap<readonly unknown[], PromptCacheMemory>();
    const memoryOf = (request: ModelRequest) => {
      if (settings.cacheBreakpoints === undefined) return undefined;
      let memory = memories.get(request.messages);
      if (memory === undefined) {
        memory = new PromptCacheMemory(CACHE_TTL_MS[cache === false ? '5m' : (cache.ttl ?? '5m')]);
        memories.set(request.messages, memory);
      }
      return memory;
    };
    const body = (request: ModelRequest) =>
      chatRequestBody(request, modelId, { ...settings, cacheMemory: memoryOf(request) });
    const requestOptions = (request: ModelRequest) =>
      request.abortSignal === undefined ? {} : { signal: request.abortSignal };

    async function generateOnce(request: ModelRequest): Promise<ModelResponse> {
      const chat = await getClient();
      let completion: OpenAIChatCompletion;
      try {
        completion = (await chat.chat.completions.create(
          body(request),
          requestOptions(request),
        )) as OpenAIChatCompletion;
      } catch (error) {
        throw openAIError(error, context(request.abortSignal));
      }
      return fromOpenAICompletion(completion, `${name}/${modelId}`, name);
    }

    async function* streamOnce(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const chat = await getClient();
      const streamBody = {
        ...body(request),
        stream: true,
        ...(options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
      };
      const parser = new OpenAIStreamParser(name);
      try {
        const stream = (await chat.chat.completions.create(
          streamBody,
          requestOptions(request),
        )) as AsyncIterable<OpenAIChatChunk>;
        for await (const chunk of stream) yield* parser.accept(chunk);
      } catch (error) {
        throw openAIError(error, context(request.abortSignal));
      }
      // The client ends the iteration quietly on an abort, and a server may close early.
      if (request.abortSignal?.aborted === true) throw abortedError();
      if (parser.finishReason === undefined) {
        throw new LoushoError(
          'LOUSHO_PROVIDER_FAILED',
          `The stream of ${name}/${modelId} ended before the reply finished (no finish_reason).`,
          { isRetryable: true },
        );
      }
      yield* parser.end(parser.finishReason);
    }

    const retry = options.retry ?? {};
    const provider: LLMProvider = {
      provider: name,
      modelId,
      generate: (request) => withRetries(() => generateOnce(request), retry, request.abortSignal),
      stream: (request) => streamWithRetries(() => streamOnce(request), retry, request.abortSignal),
    };
    const readWindow = options.contextWindow;
    if (readWindow !== undefined) provider.contextWindow = () => readWindow(modelId);
    return withTimeouts(provider, options);
  };
}
