import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { registerSecret, registerSecretHeaders, registerSecretUrl } from '../errors/redact.js';
import { isAborted } from './abortable.js';
import type { AnthropicRequest, AnthropicRequestBody } from './anthropic-api-types.js';
import { anthropicError } from './anthropic-error.js';
import { fromAnthropicReply } from './anthropic-reply.js';
import { toAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamParser } from './anthropic-stream-parser.js';
import { checkTimeoutOptions, TIMEOUT_OPTION_KEYS, type TimeoutOptions, withTimeouts } from './request-timeout.js';
import { checkRetryOptions, type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/** Options of {@link createAnthropic}. */
export interface AnthropicProviderOptions extends TimeoutOptions {
  /** The API key; process.env.ANTHROPIC_API_KEY when absent. Checked at the first call, not here. */
  apiKey?: string;
  /** The API's base URL; process.env.ANTHROPIC_BASE_URL, else https://api.anthropic.com. */
  baseURL?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of rate limits (429), server errors (5xx, 529) and network failures. */
  retry?: RetryOptions;
  /** max_tokens when a request gives no maxOutputTokens (the Messages API requires one). Default 4096. */
  maxOutputTokens?: number;
}

type AnthropicSdk = typeof import('@anthropic-ai/sdk');
type AnthropicClient = InstanceType<AnthropicSdk['Anthropic']>;

const PROVIDER = 'anthropic';
const API_KEY_ENV = 'ANTHROPIC_API_KEY';
const DEFAULT_MAX_TOKENS = 4096;
/**
 * The SDK refuses a non-streaming call whose max_tokens could take over 10 minutes
 * (60 min x max_tokens / 128,000); generate() streams such calls and collects the reply.
 */
const NON_STREAMING_MAX_TOKENS = 21_333;

async function loadSdk(): Promise<AnthropicSdk> {
  try {
    return await import('@anthropic-ai/sdk');
  } catch (error) {
    throw new LoushoError(
      'LOUSHO_DEPENDENCY_MISSING',
      'The anthropic provider needs the @anthropic-ai/sdk package: npm install @anthropic-ai/sdk',
      { cause: error, details: { package: '@anthropic-ai/sdk' } },
    );
  }
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * Anthropic's Messages API through the official SDK (loaded on the first call). Returns a
 * factory of providers by model id; they share one client. The SDK's own retries are off:
 * rate limits and server errors are retried by the library's own retry loop, with `options.retry`.
 *
 * @example
 * const provider = createAnthropic({ maxOutputTokens: 8192 })('claude-sonnet-4-5');
 * const agent = createAgent({ provider, tools });
 */
export function createAnthropic(options: AnthropicProviderOptions = {}): (modelId: string) => LLMProvider {
  checkOptions<AnthropicProviderOptions>(options, 'createAnthropic()', [
    'apiKey',
    'baseURL',
    'headers',
    'retry',
    'maxOutputTokens',
    ...TIMEOUT_OPTION_KEYS,
  ]);
  checkTimeoutOptions(options, 'createAnthropic()');
  checkNumber(options.maxOutputTokens, 'maxOutputTokens', 'createAnthropic()', { min: 1, integer: true });
  checkRetryOptions(options.retry);
  let loaded: { sdk: AnthropicSdk; client: AnthropicClient } | undefined;
  let sdkModule: AnthropicSdk | undefined;
  const retry = options.retry ?? {};
  const defaultMaxTokens = options.maxOutputTokens ?? DEFAULT_MAX_TOKENS;

  async function connect(): Promise<{ sdk: AnthropicSdk; client: AnthropicClient }> {
    if (loaded !== undefined) return loaded;
    sdkModule ??= await loadSdk();
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(process.env.ANTHROPIC_API_KEY);
    if (apiKey === undefined) {
      throw new LoushoError(
        'LOUSHO_API_KEY_MISSING',
        `The anthropic provider needs an API key: set ${API_KEY_ENV} or pass createAnthropic({ apiKey }).`,
        { details: { provider: PROVIDER, variable: API_KEY_ENV } },
      );
    }
    registerSecret(apiKey);
    registerSecretHeaders(options.headers);
    registerSecretUrl(options.baseURL);
    const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(process.env.ANTHROPIC_BASE_URL);
    const client = new sdkModule.Anthropic({
      apiKey,
      maxRetries: 0,
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    });
    loaded = { sdk: sdkModule, client };
    return loaded;
  }

  return (modelId: string): LLMProvider => {
    /** Any failure of one call as a LoushoError. */
    const toLoushoError = (
      error: unknown,
      sdk: AnthropicSdk,
      request: AnthropicRequest,
      signal: AbortSignal | undefined,
    ): LoushoError =>
      anthropicError(error, sdk, { provider: PROVIDER, model: modelId, apiKeyEnv: API_KEY_ENV, request, signal });

    const requestOptions = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

    async function* streamOnce(request: ModelRequest, wire: AnthropicRequest): AsyncIterable<ModelStreamPart> {
      const signal = request.abortSignal;
      if (isAborted(signal)) throw abortedError();
      const { sdk, client } = await connect();
      const parser = new AnthropicStreamParser();
      try {
        const body: AnthropicRequestBody & { stream: true } = { ...wire.body, stream: true };
        const events = await client.messages.create(body, requestOptions(signal));
        for await (const event of events) {
          for (const part of parser.accept(event)) yield part;
        }
      } catch (error) {
        throw toLoushoError(error, sdk, wire, signal);
      }
      // The SDK ends an aborted stream quietly.
      if (isAborted(signal)) throw abortedError();
      if (!parser.stopped) {
        throw new LoushoError(
          'LOUSHO_PROVIDER_FAILED',
          `The stream of ${PROVIDER}/${modelId} ended before message_stop; the reply is incomplete.`,
          { isRetryable: true, details: { provider: PROVIDER, model: modelId } },
        );
      }
      yield parser.finish();
    }

    async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelResponse> {
      const response: ModelResponse = {
        text: '',
        toolCalls: [],
        finishReason: 'other',
        usage: { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined },
      };
      for await (const part of parts) {
        if (part.type === 'text-delta') response.text += part.text;
        else if (part.type === 'tool-call') response.toolCalls.push(part.toolCall);
        else {
          response.finishReason = part.finishReason;
          response.usage = part.usage;
          if (part.modelId !== undefined) response.modelId = part.modelId;
        }
      }
      return response;
    }

    async function generateOnce(request: ModelRequest): Promise<ModelResponse> {
      const signal = request.abortSignal;
      if (isAborted(signal)) throw abortedError();
      const wire = toAnthropicRequest(request, modelId, defaultMaxTokens);
      if (wire.body.max_tokens > NON_STREAMING_MAX_TOKENS) return collect(streamOnce(request, wire));
      const { sdk, client } = await connect();
      try {
        const reply = await client.messages.create(wire.body, requestOptions(signal));
        return fromAnthropicReply(reply);
      } catch (error) {
        throw toLoushoError(error, sdk, wire, signal);
      }
    }

    const provider: LLMProvider = {
      provider: PROVIDER,
      modelId,
      generate: (request) => withRetries(() => generateOnce(request), retry, request.abortSignal),
      stream: (request) =>
        streamWithRetries(
          () => streamOnce(request, toAnthropicRequest(request, modelId, defaultMaxTokens)),
          retry,
          request.abortSignal,
        ),
    };
    return withTimeouts(provider, options);
  };
}
