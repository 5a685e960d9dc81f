import { abortedError, LoushoError, toError } from '../errors/lousho-error.js';
import { redactError } from '../errors/redact.js';
import type { AnthropicRequest } from './anthropic-api-types.js';
import { classifyProviderError } from './classify-error.js';

/** The SDK's error classes, from the loaded module (the SDK is an optional peer, loaded on the first call). */
export type AnthropicErrorClasses = Pick<
  typeof import('@anthropic-ai/sdk'),
  'APIUserAbortError' | 'APIConnectionError' | 'APIError'
>;

/** Which call failed, with what it sent (to point a media error at the transcript). */
export interface AnthropicCallContext {
  provider: string;
  model: string;
  /** The environment variable of the key, named in authentication errors. */
  apiKeyEnv: string;
  request: AnthropicRequest;
  signal: AbortSignal | undefined;
}

/** The messages of an error and of its causes, e.g. "Connection error. (fetch failed: connect ECONNREFUSED ...)". */
function describe(error: Error): string {
  const causes: string[] = [];
  let cause: unknown = error.cause;
  while (cause instanceof Error && causes.length < 3) {
    causes.push(cause.message);
    cause = cause.cause;
  }
  return causes.length === 0 ? error.message : `${error.message} (${causes.join(': ')})`;
}

/**
 * Points a media error at the transcript: the API counts the messages it received
 * ("messages.0.content.1"), which differ from request.messages once the system prompt is
 * lifted out and same-role messages are merged.
 */
function withTranscriptIndex(error: LoushoError, request: AnthropicRequest, text: string): LoushoError {
  const wireIndex = error.details?.messageIndex;
  if (error.code !== 'LOUSHO_MEDIA_TOO_LARGE' || typeof wireIndex !== 'number') return error;
  const block = new RegExp(`messages\\.${wireIndex}\\.content\\.(\\d+)`).exec(text);
  const blocks = request.sources[wireIndex];
  const index = blocks?.[block === null ? 0 : Number(block[1])] ?? blocks?.[0];
  if (index === undefined) return error;
  return new LoushoError(error.code, error.message, {
    cause: error.cause,
    isRetryable: error.isRetryable,
    details: { ...error.details, messageIndex: index, providerMessageIndex: wireIndex },
  });
}

/** Any failure of one Messages API call through the SDK, as a LoushoError whose text and causes show no API key. */
export function anthropicError(error: unknown, sdk: AnthropicErrorClasses, call: AnthropicCallContext): LoushoError {
  return redactError(toLoushoError(error, sdk, call));
}

function toLoushoError(error: unknown, sdk: AnthropicErrorClasses, call: AnthropicCallContext): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  if (call.signal?.aborted === true || error instanceof sdk.APIUserAbortError) return abortedError(undefined, error);
  const failure = { provider: call.provider, model: call.model, apiKeyEnv: call.apiKeyEnv, cause: error };
  if (error instanceof sdk.APIConnectionError) {
    return classifyProviderError({ ...failure, message: describe(error) });
  }
  if (error instanceof sdk.APIError) {
    // A stream's error frame has no status; the classifier reads it from error.type.
    const classified = classifyProviderError({
      ...failure,
      status: error.status ?? undefined,
      headers: error.headers,
      body: error.error,
      message: error.message,
    });
    return withTranscriptIndex(classified, call.request, error.message);
  }
  return new LoushoError('LOUSHO_PROVIDER_FAILED', `${call.provider}/${call.model} failed: ${toError(error).message}`, {
    cause: error,
    details: { provider: call.provider, model: call.model },
  });
}
