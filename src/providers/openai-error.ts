import { abortedError, LoushoError } from '../errors/lousho-error.js';
import { redactError } from '../errors/redact.js';
import { classifyProviderError } from './classify-error.js';

/** Which call failed: the provider name and model named in errors, the key's variable, and the call's signal. */
export interface OpenAICallContext {
  name: string;
  model: string;
  apiKeyEnv: string | undefined;
  signal: AbortSignal | undefined;
}

/** Anything the openai client threw, as a LoushoError whose text and causes show no API key. */
export function openAIError(error: unknown, call: OpenAICallContext): LoushoError {
  return redactError(toLoushoError(error, call));
}

function toLoushoError(error: unknown, call: OpenAICallContext): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  if (call.signal?.aborted === true) return abortedError(undefined, error);
  const e = error as { name?: string; status?: unknown; headers?: Headers; error?: unknown; message?: string };
  if (e?.name === 'APIUserAbortError' || e?.name === 'AbortError') return abortedError();
  const status = typeof e?.status === 'number' ? e.status : undefined;
  // The client's errors all have name 'Error': an APIError carries the body's `error`, a
  // connection error carries neither a status nor a body.
  const body = e?.error !== undefined ? { error: e.error } : status !== undefined ? e?.message : undefined;
  return classifyProviderError({
    provider: call.name,
    model: call.model,
    status,
    headers: e?.headers,
    body,
    message: e?.message,
    apiKeyEnv: call.apiKeyEnv,
    cause: error,
  });
}
