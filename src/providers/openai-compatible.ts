import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { FinishReason, ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { LoushoError } from '../errors/lousho-error.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import { classifyProviderError } from './classify-error.js';
import { type ChatUsage, chatRequestBody, toFinishReason, toToolCalls, toUsage } from './openai-messages.js';
import { type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/** Settings of a provider that speaks OpenAI's chat-completions API. */
export interface OpenAICompatibleOptions {
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

interface ChatCompletion {
  model?: string;
  choices?: {
    message?: { content?: string | null; tool_calls?: Parameters<typeof toToolCalls>[0] };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsage | null;
}

interface ChatChunk {
  model?: string;
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsage | null;
}

function aborted(): LoushoError {
  return new LoushoError('LOUSHO_ABORTED', 'The model call was aborted through its AbortSignal.');
}

/** Maps anything the openai client throws to a LoushoError. */
function mapError(
  error: unknown,
  context: { name: string; model: string; apiKeyEnv: string | undefined; signal: AbortSignal | undefined },
) {
  if (LoushoError.isInstance(error)) return error;
  if (context.signal?.aborted === true)
    return new LoushoError('LOUSHO_ABORTED', 'The model call was aborted through its AbortSignal.', { cause: error });
  const e = error as { name?: string; status?: unknown; headers?: Headers; error?: unknown; message?: string };
  if (e?.name === 'APIUserAbortError' || e?.name === 'AbortError') return aborted();
  const status = typeof e?.status === 'number' ? e.status : undefined;
  // The client's errors all have name 'Error': an APIError carries the body's `error`, a
  // connection error carries neither a status nor a body.
  const body = e?.error !== undefined ? { error: e.error } : status !== undefined ? e?.message : undefined;
  return classifyProviderError({
    provider: context.name,
    model: context.model,
    status,
    headers: e?.headers,
    body,
    message: e?.message,
    apiKeyEnv: context.apiKeyEnv,
    cause: error,
  });
}

/**
 * A provider for any server that speaks OpenAI's chat-completions API (vLLM, llama.cpp,
 * Together, Groq, ...). Uses the official `openai` package, loaded on the first call.
 *
 * @example
 * const provider = createOpenAICompatible({ baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'x' })('my-model');
 */
export function createOpenAICompatible(options: OpenAICompatibleOptions = {}): (modelId: string) => LLMProvider {
  const name = options.name ?? 'openai-compatible';
  const requireKey = options.requireApiKey ?? options.apiKeyEnv !== undefined;
  let client: Promise<ChatClient> | undefined;
  let clientKey: string | undefined;

  const getClient = (): Promise<ChatClient> => {
    const apiKey = options.apiKey ?? (options.apiKeyEnv === undefined ? undefined : process.env[options.apiKeyEnv]);
    if (requireKey && (apiKey === undefined || apiKey === '')) {
      const variable = options.apiKeyEnv ?? 'the API key variable';
      return Promise.reject(
        new LoushoError(
          'LOUSHO_API_KEY_MISSING',
          `The ${name} provider needs an API key: set ${variable}, or pass apiKey when you create the provider.`,
          {
            details: { provider: name, variable },
          },
        ),
      );
    }
    // One client per key: a key set or changed later is used from the next call on.
    if (clientKey !== apiKey) client = undefined;
    clientKey = apiKey;
    client ??= import('openai').then(
      (module) => {
        const OpenAI = module.default;
        return new OpenAI({
          apiKey: apiKey || 'not-needed',
          ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
          maxRetries: 0,
          ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
        }) as unknown as ChatClient;
      },
      (cause: unknown) => {
        client = undefined;
        throw new LoushoError(
          'LOUSHO_DEPENDENCY_MISSING',
          `The ${name} provider needs the openai package: npm install openai`,
          { cause },
        );
      },
    );
    return client;
  };

  return (modelId: string): LLMProvider => {
    const context = (signal: AbortSignal | undefined) => ({
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
      let completion: ChatCompletion;
      try {
        completion = (await chat.chat.completions.create(body(request), requestOptions(request))) as ChatCompletion;
      } catch (error) {
        throw mapError(error, context(request.abortSignal));
      }
      const choice = completion.choices?.[0];
      if (choice === undefined) {
        throw new LoushoError(
          'LOUSHO_PROVIDER_FAILED',
          `${name}/${modelId} answered without a choice: ${JSON.stringify(completion).slice(0, 500)}`,
        );
      }
      return {
        text: choice.message?.content ?? '',
        toolCalls: toToolCalls(choice.message?.tool_calls),
        finishReason: toFinishReason(choice.finish_reason),
        usage: toUsage(completion.usage),
        ...(completion.model === undefined ? {} : { modelId: completion.model }),
      };
    }

    async function* streamOnce(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const chat = await getClient();
      const streamBody = {
        ...body(request),
        stream: true,
        ...(options.streamUsage === false ? {} : { stream_options: { include_usage: true } }),
      };
      const calls = new Map<number, { id?: string; name: string; args: string }>();
      let finishReason: FinishReason | undefined;
      let usage: Usage = { inputTokens: undefined, outputTokens: undefined, cachedInputTokens: undefined };
      let model: string | undefined;
      try {
        const stream = (await chat.chat.completions.create(
          streamBody,
          requestOptions(request),
        )) as AsyncIterable<ChatChunk>;
        for await (const chunk of stream) {
          model ??= chunk.model;
          if (chunk.usage) usage = toUsage(chunk.usage);
          const choice = chunk.choices?.[0];
          if (choice === undefined) continue;
          const text = choice.delta?.content;
          if (text) yield { type: 'text-delta', text };
          for (const delta of choice.delta?.tool_calls ?? []) {
            const call = calls.get(delta.index) ?? { name: '', args: '' };
            if (delta.id) call.id = delta.id;
            if (delta.function?.name) call.name += delta.function.name;
            if (delta.function?.arguments) call.args += delta.function.arguments;
            calls.set(delta.index, call);
          }
          if (choice.finish_reason) finishReason = toFinishReason(choice.finish_reason);
        }
      } catch (error) {
        throw mapError(error, context(request.abortSignal));
      }
      // The client ends the iteration quietly on an abort, and a server may close early.
      if (request.abortSignal?.aborted === true) throw aborted();
      if (finishReason === undefined) {
        throw new LoushoError(
          'LOUSHO_PROVIDER_FAILED',
          `The stream of ${name}/${modelId} ended before the reply finished (no finish_reason).`,
          {
            isRetryable: true,
          },
        );
      }
      for (const [index, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
        yield {
          type: 'tool-call',
          toolCall: { id: call.id ?? `call_${index}`, name: call.name, arguments: parseToolArguments(call.args) },
        };
      }
      yield { type: 'finish', finishReason, usage, ...(model === undefined ? {} : { modelId: model }) };
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
    return provider;
  };
}
