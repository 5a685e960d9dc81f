import type { JSONSchema } from '../contracts/json-schema.js';
import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { FinishReason, ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import type { Usage } from '../contracts/usage.js';
import { configError, LoushoError } from '../errors/lousho-error.js';
import { parseToolArguments } from '../messages/tool-arguments.js';
import type { ToolCall } from '../messages/types.js';
import { type AISDKPromptForm, type AISDKPromptMessage, promptForm, toAISDKPrompt } from './ai-sdk-prompt.js';
import { classifyProviderError } from './classify-error.js';
import { type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/*
 * The parts of the AI SDK's LanguageModel specification (@ai-sdk/provider) this adapter
 * uses, declared structurally so the library needs no AI SDK package. Each type is a
 * supertype of the v2 (AI SDK 5), v3 (AI SDK 6) and v4 (AI SDK 7) shapes, so a model
 * of any of those versions is an AISDKLanguageModel as it is.
 */

/** What doGenerate and doStream receive. Loose on purpose: every version's call options fit it. */
export interface AISDKCallOptions {
  prompt: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
  tools?: ReadonlyArray<{ readonly type: string; readonly name: string }>;
  responseFormat?:
    | { readonly type: 'text' }
    | { readonly type: 'json'; readonly schema?: object; readonly name?: string; readonly description?: string };
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
}

/** A finish reason: a string in v2, `{ unified, raw }` from v3 on. */
export type AISDKFinishReason = string | { readonly unified: string; readonly raw?: string | undefined };

/**
 * Token usage: numbers in v2 (`inputTokens`, `outputTokens`, `cachedInputTokens`);
 * objects from v3 on (`inputTokens: { total, noCache, cacheRead, cacheWrite }`,
 * `outputTokens: { total, text, reasoning }`).
 */
export interface AISDKUsage {
  readonly inputTokens?:
    | number
    | {
        readonly total?: number | undefined;
        readonly noCache?: number | undefined;
        readonly cacheRead?: number | undefined;
        readonly cacheWrite?: number | undefined;
      }
    | undefined;
  readonly outputTokens?:
    | number
    | {
        readonly total?: number | undefined;
        readonly text?: number | undefined;
        readonly reasoning?: number | undefined;
      }
    | undefined;
  readonly cachedInputTokens?: number | undefined;
}

/**
 * A content part of a reply, or a part of a stream. The adapter reads 'text' (`text`),
 * 'tool-call' (`toolCallId`, `toolName`, `input` as JSON text), and in streams
 * 'text-delta' (`delta`), 'response-metadata' (`modelId`), 'finish' and 'error'; it
 * skips the rest (reasoning, sources, files, tool-input deltas, ...).
 */
export interface AISDKPart {
  readonly type: string;
}

/** What doGenerate resolves to. */
export interface AISDKGenerateResult {
  readonly content: ReadonlyArray<AISDKPart>;
  readonly finishReason: AISDKFinishReason;
  readonly usage: AISDKUsage;
  /** v4: the text to parse as structured output when it is not all the text parts together. */
  readonly structuredOutputText?: string | undefined;
  readonly response?: { readonly modelId?: string | undefined } | undefined;
}

/** What doStream resolves to. */
export interface AISDKStreamResult {
  readonly stream: ReadableStream<AISDKPart>;
}

/**
 * A Vercel AI SDK language model: what `openai('gpt-4o')`, `anthropic('claude-...')` or
 * `createOpenAICompatible(...).chatModel(id)` return (LanguageModelV2, V3 or V4).
 */
export interface AISDKLanguageModel {
  /** 'v2' (AI SDK 5), 'v3' (AI SDK 6), 'v4' (AI SDK 7). */
  readonly specificationVersion: string;
  /** e.g. 'openai.chat', 'anthropic.messages'. */
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AISDKCallOptions): PromiseLike<AISDKGenerateResult>;
  doStream(options: AISDKCallOptions): PromiseLike<AISDKStreamResult>;
}

/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions {
  /** Retries of 429 and 5xx answers and network failures (the AI SDK model itself does not retry). */
  retry?: RetryOptions;
  /** The vendor name reported on usage and errors. Default: model.provider up to its first '.' ('openai.chat' → 'openai'). */
  provider?: string;
}

/** The call options this adapter builds (a precise form of {@link AISDKCallOptions}). */
interface CallOptions extends AISDKCallOptions {
  prompt: AISDKPromptMessage[];
  tools?: { type: 'function'; name: string; description?: string; inputSchema: JSONSchema }[];
  responseFormat?: { type: 'json'; schema: JSONSchema };
}

function aborted(cause?: unknown): LoushoError {
  return new LoushoError(
    'LOUSHO_ABORTED',
    'The model call was aborted through its AbortSignal.',
    cause === undefined ? {} : { cause },
  );
}

/** Settles like `promise`, or rejects with LOUSHO_ABORTED as soon as `signal` fires (for models that ignore it). */
function abortable<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(aborted());
    const onAbort = () => reject(aborted());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Read through a call so TypeScript does not keep a narrowing of `aborted` across an await. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function errorName(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/** The fields of the AI SDK's APICallError, found by its marker or its name (no import needed). */
interface APICallErrorLike {
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  data?: unknown;
  message?: string;
}

function isAPICallError(error: unknown): error is APICallErrorLike {
  if (typeof error !== 'object' || error === null) return false;
  const marked = (error as Record<symbol, unknown>)[Symbol.for('vercel.ai.error.AI_APICallError')] === true;
  return marked || errorName(error) === 'AI_APICallError';
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface Where {
  provider: string;
  model: string;
  signal: AbortSignal | undefined;
}

/** Maps what a model threw to a LoushoError: HTTP failures through classifyProviderError. */
function mapError(error: unknown, where: Where): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  const name = errorName(error);
  if (where.signal?.aborted === true || name === 'AbortError') return aborted(error);
  const details = { provider: where.provider, model: where.model };
  if (isAPICallError(error)) {
    const body = parseBody(error.responseBody) ?? error.data;
    return classifyProviderError({
      provider: where.provider,
      model: where.model,
      status: typeof error.statusCode === 'number' ? error.statusCode : undefined,
      headers: error.responseHeaders,
      body,
      message: errorMessage(error),
      cause: error,
    });
  }
  if (name === 'AI_LoadAPIKeyError') {
    return new LoushoError('LOUSHO_API_KEY_MISSING', errorMessage(error), { cause: error, details });
  }
  return new LoushoError('LOUSHO_PROVIDER_FAILED', `${where.provider}/${where.model} failed: ${errorMessage(error)}`, {
    cause: error,
    details,
  });
}

/** An error part of a stream: an HTTP failure is classified; anything else is a retryable provider error. */
function streamError(error: unknown, where: Where): LoushoError {
  if (LoushoError.isInstance(error) || isAPICallError(error) || where.signal?.aborted === true) {
    return mapError(error, where);
  }
  const body = error as { error?: unknown } | null;
  const text =
    typeof body === 'object' && body !== null && 'error' in body ? errorMessage(body.error) : errorMessage(error);
  return new LoushoError(
    'LOUSHO_PROVIDER_FAILED',
    `${where.provider}/${where.model} sent an error in its stream: ${text}`,
    {
      cause: error,
      isRetryable: true,
      details: { provider: where.provider, model: where.model },
    },
  );
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Usage of either shape; what the model did not report stays undefined. */
export function fromAISDKUsage(usage: AISDKUsage | undefined): Usage {
  const input = usage?.inputTokens;
  const output = usage?.outputTokens;
  let inputTokens: number | undefined;
  let cachedInputTokens: number | undefined;
  if (typeof input === 'object' && input !== null) {
    const noCache = count(input.noCache);
    cachedInputTokens = count(input.cacheRead);
    inputTokens =
      count(input.total) ??
      (noCache === undefined ? undefined : noCache + (cachedInputTokens ?? 0) + (count(input.cacheWrite) ?? 0));
  } else {
    inputTokens = count(input);
    cachedInputTokens = count(usage?.cachedInputTokens);
  }
  let outputTokens: number | undefined;
  if (typeof output === 'object' && output !== null) {
    const text = count(output.text);
    outputTokens = count(output.total) ?? (text === undefined ? undefined : text + (count(output.reasoning) ?? 0));
  } else {
    outputTokens = count(output);
  }
  return { inputTokens, outputTokens, cachedInputTokens };
}

/** A finish reason of either shape as ours; 'error', 'unknown', 'interrupted' and the like are 'other'. */
export function fromAISDKFinishReason(reason: AISDKFinishReason | undefined): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason?.unified;
  switch (unified) {
    case 'stop':
    case 'tool-calls':
    case 'length':
    case 'content-filter':
      return unified;
    default:
      return 'other';
  }
}

function field(part: AISDKPart, name: string): unknown {
  return (part as unknown as Record<string, unknown>)[name];
}

/** A 'tool-call' part as our ToolCall; undefined for calls the provider ran itself (its built-in tools). */
function toToolCall(part: AISDKPart): ToolCall | undefined {
  if (field(part, 'providerExecuted') === true) return undefined;
  const id = field(part, 'toolCallId');
  const name = field(part, 'toolName');
  return {
    id: typeof id === 'string' ? id : '',
    name: typeof name === 'string' ? name : '',
    arguments: parseToolArguments(field(part, 'input')),
  };
}

function checkModel(model: unknown): asserts model is AISDKLanguageModel {
  const m = model as Partial<AISDKLanguageModel> | null;
  if (
    typeof m !== 'object' ||
    m === null ||
    typeof m.doGenerate !== 'function' ||
    typeof m.doStream !== 'function' ||
    typeof m.modelId !== 'string'
  ) {
    throw configError(
      'fromAISDK() takes an AI SDK language model, such as openai("gpt-4o") from @ai-sdk/openai: an object with modelId, doGenerate and doStream.',
    );
  }
  if (m.specificationVersion === 'v1') {
    throw configError(
      `fromAISDK(): ${m.modelId} implements the v1 language model specification (AI SDK 4); use a provider package of AI SDK 5 or later (specification v2 and up).`,
    );
  }
}

/**
 * Wraps a Vercel AI SDK language model (specification v2, v3 or v4) as an LLMProvider,
 * so any AI SDK provider package works with createAgent. The library imports no AI SDK
 * package: the model is used through its doGenerate and doStream methods.
 *
 * @example
 * import { openai } from '@ai-sdk/openai';
 * const agent = createAgent({ provider: fromAISDK(openai('gpt-4o-mini')), tools });
 */
export function fromAISDK(model: AISDKLanguageModel, options: FromAISDKOptions = {}): LLMProvider {
  checkModel(model);
  const provider =
    options.provider ?? ((typeof model.provider === 'string' ? model.provider.split('.')[0] : '') || 'ai-sdk');
  const modelId = model.modelId;
  const retry = options.retry ?? {};
  const form: AISDKPromptForm = promptForm(String(model.specificationVersion));

  const callOptions = (request: ModelRequest): CallOptions => {
    const tools = request.tools ?? [];
    return {
      prompt: toAISDKPrompt(request.messages, form),
      ...(tools.length === 0
        ? {}
        : {
            tools: tools.map((t) => ({
              type: 'function' as const,
              name: t.name,
              ...(t.description === undefined ? {} : { description: t.description }),
              inputSchema: t.parameters,
            })),
          }),
      ...(request.outputSchema === undefined ? {} : { responseFormat: { type: 'json', schema: request.outputSchema } }),
      ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.abortSignal === undefined ? {} : { abortSignal: request.abortSignal }),
    };
  };

  const toResponse = (result: AISDKGenerateResult, request: ModelRequest): ModelResponse => {
    let text = '';
    const toolCalls: ToolCall[] = [];
    for (const part of result.content) {
      if (part.type === 'text') {
        const piece = field(part, 'text');
        if (typeof piece === 'string') text += piece;
      } else if (part.type === 'tool-call') {
        const call = toToolCall(part);
        if (call !== undefined) toolCalls.push(call);
      }
    }
    if (request.outputSchema !== undefined && typeof result.structuredOutputText === 'string') {
      text = result.structuredOutputText;
    }
    return {
      text,
      toolCalls,
      finishReason: fromAISDKFinishReason(result.finishReason),
      usage: fromAISDKUsage(result.usage),
      modelId: result.response?.modelId ?? modelId,
    };
  };

  async function* streamOnce(options: CallOptions, where: Where): AsyncIterable<ModelStreamPart> {
    const { signal } = where;
    if (signal?.aborted === true) throw aborted();
    let result: AISDKStreamResult;
    try {
      result = await abortable(model.doStream(options), signal);
    } catch (error) {
      throw mapError(error, where);
    }
    const reader = result.stream.getReader();
    // A model that ignores the signal still stops: cancelling ends the pending read.
    const onAbort = () => {
      reader.cancel().catch(() => undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let drained = false;
    let finish: Extract<ModelStreamPart, { type: 'finish' }> | undefined;
    let answeredBy: string | undefined;
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<AISDKPart>;
        try {
          chunk = await reader.read();
        } catch (error) {
          throw mapError(error, where);
        }
        if (isAborted(signal)) throw aborted();
        if (chunk.done) {
          drained = true;
          break;
        }
        const part = chunk.value;
        switch (part.type) {
          case 'text-delta': {
            const delta = field(part, 'delta');
            if (typeof delta === 'string' && delta !== '') yield { type: 'text-delta', text: delta };
            break;
          }
          case 'tool-call': {
            const toolCall = toToolCall(part);
            if (toolCall !== undefined) yield { type: 'tool-call', toolCall };
            break;
          }
          case 'response-metadata': {
            const id = field(part, 'modelId');
            if (typeof id === 'string') answeredBy = id;
            break;
          }
          case 'finish':
            finish ??= {
              type: 'finish',
              finishReason: fromAISDKFinishReason(field(part, 'finishReason') as AISDKFinishReason | undefined),
              usage: fromAISDKUsage(field(part, 'usage') as AISDKUsage | undefined),
              modelId: answeredBy ?? modelId,
            };
            break;
          case 'error':
            throw streamError(field(part, 'error'), where);
          default:
            break;
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (drained) reader.releaseLock();
      else reader.cancel().catch(() => undefined);
    }
    if (finish === undefined) {
      throw new LoushoError(
        'LOUSHO_PROVIDER_FAILED',
        `The stream of ${provider}/${modelId} ended without a finish part.`,
        { details: { provider, model: modelId } },
      );
    }
    yield finish;
  }

  return {
    provider,
    modelId,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const signal = request.abortSignal;
      const where: Where = { provider, model: modelId, signal };
      const options = callOptions(request);
      return withRetries(
        async () => {
          if (signal?.aborted === true) throw aborted();
          let result: AISDKGenerateResult;
          try {
            result = await abortable(model.doGenerate(options), signal);
          } catch (error) {
            throw mapError(error, where);
          }
          return toResponse(result, request);
        },
        retry,
        signal,
      );
    },
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const signal = request.abortSignal;
      const where: Where = { provider, model: modelId, signal };
      const options = callOptions(request);
      return streamWithRetries(() => streamOnce(options, where), retry, signal);
    },
  };
}
