import type { ModelStreamPart } from '../contracts/model-response.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { abortable, isAborted } from './abortable.js';
import type { AISDKRequestOptions } from './ai-sdk-call-options.js';
import { type AISDKCallContext, aiSDKError, aiSDKStreamError } from './ai-sdk-error.js';
import { aiSDKFinishReason } from './ai-sdk-finish-reason.js';
import { aiSDKPartField, aiSDKToolCall } from './ai-sdk-response.js';
import type { AISDKFinishReason, AISDKLanguageModel, AISDKPart, AISDKStreamResult, AISDKUsage } from './ai-sdk-spec.js';
import { aiSDKUsage } from './ai-sdk-usage.js';

type FinishPart = Extract<ModelStreamPart, { type: 'finish' }>;

/**
 * One doStream call as our stream parts: text deltas, tool calls (not the ones the
 * provider ran itself) and one finish part at the end. An 'error' part, a failed read or
 * a stream without a finish part throws a LoushoError; an abort cancels the read even
 * when the model ignores its signal.
 */
export async function* aiSDKStream(
  model: AISDKLanguageModel,
  options: AISDKRequestOptions,
  call: AISDKCallContext,
): AsyncIterable<ModelStreamPart> {
  const { signal } = call;
  if (isAborted(signal)) throw abortedError();
  let result: AISDKStreamResult;
  try {
    result = await abortable(model.doStream(options), signal);
  } catch (error) {
    throw aiSDKError(error, call);
  }
  const reader = result.stream.getReader();
  // A model that ignores the signal still stops: cancelling ends the pending read.
  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let drained = false;
  let finish: FinishPart | undefined;
  let answeredBy: string | undefined;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<AISDKPart>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw aiSDKError(error, call);
      }
      if (isAborted(signal)) throw abortedError();
      if (chunk.done) {
        drained = true;
        break;
      }
      const part = chunk.value;
      switch (part.type) {
        case 'text-delta': {
          const delta = aiSDKPartField(part, 'delta');
          if (typeof delta === 'string' && delta !== '') yield { type: 'text-delta', text: delta };
          break;
        }
        case 'reasoning-delta': {
          const delta = aiSDKPartField(part, 'delta');
          if (typeof delta === 'string' && delta !== '') yield { type: 'reasoning-delta', text: delta };
          break;
        }
        case 'tool-call': {
          const toolCall = aiSDKToolCall(part);
          if (toolCall !== undefined) yield { type: 'tool-call', toolCall };
          break;
        }
        case 'response-metadata': {
          const id = aiSDKPartField(part, 'modelId');
          if (typeof id === 'string') answeredBy = id;
          break;
        }
        case 'finish':
          finish ??= {
            type: 'finish',
            finishReason: aiSDKFinishReason(aiSDKPartField(part, 'finishReason') as AISDKFinishReason | undefined),
            usage: aiSDKUsage(aiSDKPartField(part, 'usage') as AISDKUsage | undefined),
            modelId: answeredBy ?? call.model,
          };
          break;
        case 'error':
          throw aiSDKStreamError(aiSDKPartField(part, 'error'), call);
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
      `The stream of ${call.provider}/${call.model} ended without a finish part.`,
      { details: { provider: call.provider, model: call.model } },
    );
  }
  yield finish;
}
