import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import type { ProviderCompactionResponse } from '../contracts/provider-compaction.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { registerSecret, registerSecretHeaders, registerSecretUrl } from '../errors/redact.js';
import { isAborted } from './abortable.js';
import type {
  AnthropicReply,
  AnthropicRequest,
  AnthropicRequestBody,
  AnthropicStreamEvent,
} from './anthropic-api-types.js';
import type { AnthropicPromptCache } from './anthropic-cache-control.js';
import { compactionBetaHeaders, fromAnthropicCompaction, toAnthropicCompactRequest } from './anthropic-compact.js';
import { anthropicError } from './anthropic-error.js';
import { PROVIDER } from './anthropic-messages.js';
import { fromAnthropicReply } from './anthropic-reply.js';
import { type AnthropicRequestSettings, toAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamParser } from './anthropic-stream-parser.js';
import { thinkingBetas } from './anthropic-thinking.js';
import { CACHE_TTL_MS, PromptCacheMemory } from './prompt-cache-memory.js';
import { checkPromptCache } from './prompt-cache-option.js';
import { ReplyAssembler } from './reply-assembler.js';
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
  /**
   * Prompt caching: on by default, with `cache_control` breakpoints on the tools, the system
   * prompt and the newest messages (at most four); `{ ttl: '1h' }` asks for the one-hour
   * cache (billed higher than the 5-minute writes the model table prices), `false` sends none.
   */
  promptCache?: AnthropicPromptCache;
  /**
   * Server-side context management, sent as the body's `context_management` on every request,
   * e.g. `{ edits: [{ type: 'compact_20260112' }] }` for Anthropic's compaction (add its beta
   * header with `headers`). Compaction blocks in replies become compaction parts of the
   * assistant message and go back to the API unchanged.
   */
  contextManagement?: Record<string, unknown>;
}

type AnthropicSdk = typeof import('@anthropic-ai/sdk');
type AnthropicClient = InstanceType<AnthropicSdk['Anthropic']>;
// Our body is the documented wire format; the SDK's types lag behind it (compaction blocks), so it is passed as theirs.
type SdkBody = import('@anthropic-ai/sdk').default.MessageCreateParamsNonStreaming;
type SdkStreamBody = import('@anthropic-ai/sdk').default.MessageCreateParamsStreaming;

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
 * Its providers' `compact()` asks for an on-demand compaction (the `compaction` parameter, with
 * its beta header) for `providerCompactionStrategy()`; the header goes on every later request
 * that carries the signed block.
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
    'promptCache',
    'contextManagement',
  ]);
  checkTimeoutOptions(options, 'createAnthropic()');
  checkPromptCache(options.promptCache, 'createAnthropic()');
  checkNumber(options.maxOutputTokens, 'maxOutputTokens', 'createAnthropic()', { min: 1, integer: true });
  checkRetryOptions(options.retry);
  let loaded: { sdk: AnthropicSdk; client: AnthropicClient } | undefined;
  let sdkModule: AnthropicSdk | undefined;
  const retry = options.retry ?? {};
  const settings: AnthropicRequestSettings = {
    defaultMaxTokens: options.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    promptCache: options.promptCache ?? {},
    contextManagement: options.contextManagement,
  };
  // What each run's earlier requests cached, by its transcript (a run sends the same array at every step).
  const memories = new WeakMap<readonly unknown[], PromptCacheMemory>();
  const settingsFor = (request: ModelRequest): AnthropicRequestSettings => {
    const cache = settings.promptCache;
    if (cache === false) return settings;
    let memory = memories.get(request.messages);
    if (memory === undefined) {
      memory = new PromptCacheMemory(CACHE_TTL_MS[cache.ttl ?? '5m']);
      memories.set(request.messages, memory);
    }
    return { ...settings, cacheMemory: memory };
  };

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

    /** The signal, and the betas the body needs: compaction's, interleaved thinking's (see compactionBetaHeaders). */
    const requestOptions = (signal: AbortSignal | undefined, body: AnthropicRequestBody) => {
      const headers = compactionBetaHeaders(body, options.headers, thinkingBetas(body));
      return { ...(signal === undefined ? {} : { signal }), ...(headers === undefined ? {} : { headers }) };
    };

    async function* streamOnce(request: ModelRequest, wire: AnthropicRequest): AsyncIterable<ModelStreamPart> {
      const signal = request.abortSignal;
      if (isAborted(signal)) throw abortedError();
      const { sdk, client } = await connect();
      const parser = new AnthropicStreamParser();
      try {
        const body: AnthropicRequestBody & { stream: true } = { ...wire.body, stream: true };
        const events = (await client.messages.create(
          body as unknown as SdkStreamBody,
          requestOptions(signal, body),
        )) as AsyncIterable<AnthropicStreamEvent>;
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
      const reply = new ReplyAssembler();
      for await (const part of parts) reply.accept(part);
      return reply.response(`${PROVIDER}/${modelId}`);
    }

    async function generateOnce(request: ModelRequest): Promise<ModelResponse> {
      const signal = request.abortSignal;
      if (isAborted(signal)) throw abortedError();
      const wire = toAnthropicRequest(request, modelId, settingsFor(request));
      if (wire.body.max_tokens > NON_STREAMING_MAX_TOKENS) return collect(streamOnce(request, wire));
      const { sdk, client } = await connect();
      try {
        const reply = (await client.messages.create(
          wire.body as unknown as SdkBody,
          requestOptions(signal, wire.body),
        )) as AnthropicReply;
        return fromAnthropicReply(reply);
      } catch (error) {
        throw toLoushoError(error, sdk, wire, signal);
      }
    }

    /** On-demand compaction: one request with `compaction`, answered by a compaction block. */
    async function compactOnce(request: ModelRequest): Promise<ProviderCompactionResponse> {
      const signal = request.abortSignal;
      if (isAborted(signal)) throw abortedError();
      const wire = toAnthropicCompactRequest(request, modelId, settings);
      const { sdk, client } = await connect();
      let reply: AnthropicReply;
      try {
        reply = (await client.messages.create(
          wire.body as unknown as SdkBody,
          requestOptions(signal, wire.body),
        )) as AnthropicReply;
      } catch (error) {
        throw toLoushoError(error, sdk, wire, signal);
      }
      return fromAnthropicCompaction(reply, `${PROVIDER}/${modelId}`);
    }

    const provider: LLMProvider = {
      provider: PROVIDER,
      modelId,
      generate: (request) => withRetries(() => generateOnce(request), retry, request.abortSignal),
      stream: (request) =>
        streamWithRetries(
          () => streamOnce(request, toAnthropicRequest(request, modelId, settingsFor(request))),
          retry,
          request.abortSignal,
        ),
      compact: (request) => withRetries(() => compactOnce(request), retry, request.abortSignal),
    };
    return withTimeouts(provider, options);
  };
}
