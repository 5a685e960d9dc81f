import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { ModelResponse, ModelStreamPart } from '../contracts/model-response.js';
import { checkOptions } from '../errors/check-options.js';
import { abortedError, configError } from '../errors/lousho-error.js';
import { abortable } from './abortable.js';
import { toAISDKCallOptions } from './ai-sdk-call-options.js';
import { type AISDKCallContext, aiSDKError } from './ai-sdk-error.js';
import { promptForm } from './ai-sdk-prompt.js';
import { aiSDKResponse } from './ai-sdk-response.js';
import type { AISDKGenerateResult, AISDKLanguageModel } from './ai-sdk-spec.js';
import { aiSDKStream } from './ai-sdk-stream.js';
import { checkTimeoutOptions, TIMEOUT_OPTION_KEYS, type TimeoutOptions, withTimeouts } from './request-timeout.js';
import { checkRetryOptions, type RetryOptions, streamWithRetries, withRetries } from './retry.js';

/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions extends TimeoutOptions {
  /** Retries of 429 and 5xx answers and network failures (the AI SDK model itself does not retry). */
  retry?: RetryOptions;
  /** The vendor name reported on usage and errors. Default: model.provider up to its first '.' ('openai.chat' → 'openai'). */
  provider?: string;
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
  checkOptions<FromAISDKOptions>(options, 'fromAISDK()', ['retry', 'provider', ...TIMEOUT_OPTION_KEYS]);
  checkTimeoutOptions(options, 'fromAISDK()');
  checkRetryOptions(options.retry);
  const provider =
    options.provider ?? ((typeof model.provider === 'string' ? model.provider.split('.')[0] : '') || 'ai-sdk');
  const retry = options.retry ?? {};
  const form = promptForm(String(model.specificationVersion));

  return withTimeouts(adapted(model, provider, retry, form), options);
}

function adapted(
  model: AISDKLanguageModel,
  provider: string,
  retry: RetryOptions,
  form: ReturnType<typeof promptForm>,
): LLMProvider {
  const modelId = model.modelId;
  return {
    provider,
    modelId,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const signal = request.abortSignal;
      const call: AISDKCallContext = { provider, model: modelId, signal };
      const callOptions = toAISDKCallOptions(request, form);
      return withRetries(
        async () => {
          if (signal?.aborted === true) throw abortedError();
          let result: AISDKGenerateResult;
          try {
            result = await abortable(model.doGenerate(callOptions), signal);
          } catch (error) {
            throw aiSDKError(error, call);
          }
          return aiSDKResponse(result, request, modelId);
        },
        retry,
        signal,
      );
    },
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      const signal = request.abortSignal;
      const call: AISDKCallContext = { provider, model: modelId, signal };
      const callOptions = toAISDKCallOptions(request, form);
      return streamWithRetries(() => aiSDKStream(model, callOptions, call), retry, signal);
    },
  };
}
