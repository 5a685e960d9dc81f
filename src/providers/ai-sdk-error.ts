import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { redactError } from '../errors/redact.js';
import { classifyProviderError } from './classify-error.js';

/** Which call failed: the vendor and model named in errors, and the call's signal. */
export interface AISDKCallContext {
  provider: string;
  model: string;
  signal: AbortSignal | undefined;
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

/**
 * What an AI SDK model threw, as a LoushoError whose text and causes show no API key:
 * HTTP failures (APICallError) through classifyProviderError.
 */
export function aiSDKError(error: unknown, call: AISDKCallContext): LoushoError {
  return redactError(toLoushoError(error, call));
}

function toLoushoError(error: unknown, call: AISDKCallContext): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  const name = errorName(error);
  if (call.signal?.aborted === true || name === 'AbortError') return abortedError(undefined, error);
  const details = { provider: call.provider, model: call.model };
  if (isAPICallError(error)) {
    const body = parseBody(error.responseBody) ?? error.data;
    return classifyProviderError({
      provider: call.provider,
      model: call.model,
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
  return new LoushoError('LOUSHO_PROVIDER_FAILED', `${call.provider}/${call.model} failed: ${errorMessage(error)}`, {
    cause: error,
    details,
  });
}

/** The error of an 'error' stream part: an HTTP failure is classified; anything else is a retryable provider error. */
export function aiSDKStreamError(error: unknown, call: AISDKCallContext): LoushoError {
  if (LoushoError.isInstance(error) || isAPICallError(error) || call.signal?.aborted === true) {
    return aiSDKError(error, call);
  }
  const body = error as { error?: unknown } | null;
  const text =
    typeof body === 'object' && body !== null && 'error' in body ? errorMessage(body.error) : errorMessage(error);
  return new LoushoError(
    'LOUSHO_PROVIDER_FAILED',
    `${call.provider}/${call.model} sent an error in its stream: ${text}`,
    {
      cause: error,
      isRetryable: true,
      details: { provider: call.provider, model: call.model },
    },
  );
}
