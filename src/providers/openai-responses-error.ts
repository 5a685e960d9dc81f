import { LoushoError } from '../errors/lousho-error.js';
import { redactError } from '../errors/redact.js';
import { classifyProviderError } from './classify-error.js';
import { type OpenAICallContext, openAIError } from './openai-error.js';
import type { ResponsesError } from './openai-responses-api-types.js';

/**
 * The HTTP status an error code stands for, for the errors a stream reports after it answered
 * 200 (`response.failed`, an `error` event), which carry a code and no status.
 */
const CODE_STATUS: Readonly<Record<string, number>> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  context_length_exceeded: 400,
  invalid_prompt: 400,
  server_error: 500,
  internal_error: 500,
  server_is_overloaded: 503,
  slow_down: 503,
};

/** The status of an error code, when it is one of the codes above. */
function statusOfCode(code: string | null | undefined): number | undefined {
  return typeof code === 'string' ? CODE_STATUS[code] : undefined;
}

/**
 * The error a response reports inside a stream (`response.failed`, an `error` event) or in a
 * 200 whose status is failed, classified like an HTTP error of the same code: a 429 code is
 * LOUSHO_RATE_LIMITED, an overflow LOUSHO_CONTEXT_OVERFLOW, a server error a retryable
 * LOUSHO_PROVIDER_FAILED; the text is redacted.
 */
export function responsesFailure(
  error: ResponsesError | null | undefined,
  call: OpenAICallContext,
  cause?: unknown,
): LoushoError {
  const body = { error: { ...error, message: error?.message ?? 'the response failed without a message' } };
  return redactError(
    classifyProviderError({
      provider: call.name,
      model: call.model,
      status: statusOfCode(error?.code),
      body,
      apiKeyEnv: call.apiKeyEnv,
      cause,
    }),
  );
}

/**
 * Anything a Responses API call threw, as a LoushoError: an HTTP error by its status and body
 * (as the chat provider's), and an error frame of a stream, which the client throws without a
 * status, by its code.
 */
export function responsesError(error: unknown, call: OpenAICallContext): LoushoError {
  if (LoushoError.isInstance(error)) return error;
  const e = error as { status?: unknown; error?: ResponsesError | null } | null;
  const inStream = typeof e === 'object' && e !== null && e.status === undefined && typeof e.error === 'object';
  if (inStream && call.signal?.aborted !== true && statusOfCode(e.error?.code) !== undefined)
    return responsesFailure(e.error, call, error);
  return openAIError(error, call);
}
