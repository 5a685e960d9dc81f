import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { checkOptions } from '../errors/check-options.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { openAIClientLoader } from './openai-client.js';
import { type OpenAICallContext, openAIError } from './openai-error.js';
import { chatRequestBody } from './openai-messages.js';
import { fromOpenAICompletion, type OpenAIChatCompletion } from './openai-reply.js';
import { type OpenAIChatChunk, OpenAIStreamParser } from './openai-stream-parser.js';
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
    ...TIMEOUT_OPTION_KEYS,
  ]);
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
    const body = (request: ModelRequest) => chatRequestBody(request, modelId, options.maxTokensField ?? 'max_tokens');
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
      return fromOpenAICompletion(completion, `${name}/${modelId}`);
    }

    async function* streamOnce(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const chat = await getClient();
      const streamBody = {
        ...body(request),
        stream: true,
        ...(options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
      };
      const parser = new OpenAIStreamParser();
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
