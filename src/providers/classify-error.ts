import { LoushoError } from '../errors/lousho-error.js';
import { redactedCopy, redactText } from '../errors/redact.js';

/** What is known of a failed provider call. */
export interface ProviderFailure {
  /** The vendor, e.g. 'openai'. */
  provider: string;
  model: string;
  /** HTTP status; undefined when no response arrived. */
  status?: number | undefined;
  headers?: Headers | Record<string, string | string[] | undefined> | undefined;
  /** The parsed JSON body, or its text. */
  body?: unknown;
  /** A message from the client library, when there is no body. */
  message?: string | undefined;
  /** The environment variable that holds the key, for authentication errors. */
  apiKeyEnv?: string | undefined;
  cause?: unknown;
}

function header(headers: ProviderFailure['headers'], name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? record[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** The error text of a provider body: error.message, error (a string), message, or the text itself. */
export function errorText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null) return '';
  const b = body as { error?: unknown; message?: unknown; detail?: unknown };
  if (typeof b.error === 'string') return b.error;
  if (typeof b.error === 'object' && b.error !== null) {
    const e = b.error as { message?: unknown; metadata?: { raw?: unknown } };
    const raw = typeof e.metadata?.raw === 'string' ? ` ${e.metadata.raw}` : '';
    if (typeof e.message === 'string') return e.message + raw;
  }
  if (typeof b.message === 'string') return b.message;
  if (typeof b.detail === 'string') return b.detail;
  return JSON.stringify(body);
}

function errorCode(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown; type?: unknown } } | null)?.error;
  if (typeof e !== 'object' || e === null) return undefined;
  return typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined;
}

/**
 * The HTTP status an error body's `error.type` stands for, for errors that arrive without
 * one (an error frame inside a stream that had already answered 200). Anthropic's types,
 * which OpenRouter relays too.
 */
const ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function statusOfErrorType(body: unknown): number | undefined {
  const error = (body as { error?: { type?: unknown }; type?: unknown } | null | undefined)?.error;
  const type = typeof error === 'object' && error !== null ? error.type : undefined;
  return typeof type === 'string' ? ERROR_TYPE_STATUS[type] : undefined;
}

/** Milliseconds to wait from retry-after-ms, retry-after (seconds or a date), or "try again in 20s" in the text. */
export function retryAfterMs(headers: ProviderFailure['headers'], text: string): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && header(headers, 'retry-after-ms') !== undefined) return ms;
  const after = header(headers, 'retry-after');
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  const hint = /try again in (\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b/i.exec(text);
  if (hint !== null) return Number(hint[1]) * (hint[2]?.toLowerCase() === 'ms' ? 1 : 1000);
  return undefined;
}

const OVERFLOW = [
  /maximum context length is (?<limit>\d+) tokens[\s\S]*?(?:resulted in|requested about|requested|you requested) (?<requested>\d+) tokens/i,
  /prompt is too long: (?<requested>\d+) tokens > (?<limit>\d+) maximum/i,
  /input length \((?<requested>\d+)(?: tokens)?\) exceeds (?:the )?(?:maximum )?context length \((?<limit>\d+)(?: tokens)?\)/i,
  /request \((?<requested>\d+) tokens\) exceeds the available context size \((?<limit>\d+) tokens\)/i,
  /exceed_context_size_error/i,
  /input length exceeds the (?:maximum )?context length/i,
  /(?<requested>\d+) tokens? (?:exceeds|is greater than) the (?:model's )?(?:maximum )?context length of (?<limit>\d+)/i,
  /context length of only (?<limit>\d+) tokens/i,
  /context[_ ]length[_ ]exceeded/i,
  /exceeds the context window/i,
  /(?:prompt|input|request) is too long/i,
  /too many (?:input )?tokens/i,
  /context (?:window|length) (?:is )?(?:exceeded|overflow)/i,
  /greater than the context length/i,
];
const MEDIA = [
  /image[\s\S]{0,80}(?:too large|exceeds|larger than|maximum)/i,
  /(?:file|media|attachment)[\s\S]{0,40}too large/i,
  /image dimensions exceed/i,
];

function parseOverflow(text: string): { limit?: number; requested?: number } | undefined {
  for (const pattern of OVERFLOW) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const limit = match.groups?.limit === undefined ? undefined : Number(match.groups.limit);
    const requested = match.groups?.requested === undefined ? undefined : Number(match.groups.requested);
    return { ...(limit === undefined ? {} : { limit }), ...(requested === undefined ? {} : { requested }) };
  }
  return undefined;
}

/** The index of the message a media error names ("messages.3.content.1.image..."), when it does. */
function mediaMessageIndex(text: string): number | undefined {
  const match = /messages\.\[?(\d+)\]?\.content/.exec(text) ?? /messages\[(\d+)\]/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Maps a failed provider call to a LoushoError with a stable code: context overflow (with
 * the limit and request size when the message states them), media too large, rate
 * limited (with retryAfterMs), authentication, or a provider error (retryable for 5xx,
 * 529 and network failures). The provider's text is redacted (an API key it echoes is
 * shown as "sk-...abcd"), and the cause is a redacted copy of the client's error.
 */
export function classifyProviderError(failure: ProviderFailure): LoushoError {
  const { provider, model } = failure;
  const status = failure.status ?? (failure.body === undefined ? undefined : statusOfErrorType(failure.body));
  const text = redactText(errorText(failure.body) || failure.message || 'no error message');
  const code = errorCode(failure.body);
  const where = `${provider}/${model}`;
  const base = {
    cause: redactedCopy(failure.cause),
    details: { provider, model, ...(status === undefined ? {} : { status }) },
  };
  if (status === undefined && failure.body !== undefined) {
    // An error inside a stream that had already answered 200 (LM Studio's `event: error`, OpenAI's `{ error }` chunk).
    const inner = classifyProviderError({ ...failure, status: 400 });
    if (inner.code !== 'LOUSHO_PROVIDER_FAILED') return inner;
    return new LoushoError('LOUSHO_PROVIDER_FAILED', `${where} failed in the middle of its reply: ${text}`, base);
  }
  if (status === undefined) {
    return new LoushoError(
      'LOUSHO_PROVIDER_FAILED',
      `Could not reach ${where}: ${text}. Check the base URL and that the server is running.`,
      {
        ...base,
        isRetryable: true,
      },
    );
  }
  if (status === 401 || status === 403) {
    const fix =
      failure.apiKeyEnv === undefined ? 'Check the API key.' : `Check ${failure.apiKeyEnv} (or the apiKey option).`;
    return new LoushoError(
      'LOUSHO_AUTHENTICATION_FAILED',
      `${where} rejected the credentials (${status}): ${text}. ${fix}`,
      base,
    );
  }
  if (status === 429) {
    const quota = code === 'insufficient_quota' || /quota|billing|credits/i.test(text);
    const wait = retryAfterMs(failure.headers, text);
    return new LoushoError('LOUSHO_RATE_LIMITED', `${where} is rate limited (429): ${text}`, {
      ...base,
      isRetryable: !quota,
      details: {
        ...base.details,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
        ...(quota ? { quotaExceeded: true } : {}),
      },
    });
  }
  const media = MEDIA.some((p) => p.test(text));
  const overflow = media ? undefined : (parseOverflow(text) ?? (code === 'context_length_exceeded' ? {} : undefined));
  // Some servers (Ollama's /v1) answer an overflow with a 500: the text decides.
  if (status >= 500 && overflow !== undefined) {
    return new LoushoError('LOUSHO_CONTEXT_OVERFLOW', `The request is longer than ${where}'s context window: ${text}`, {
      ...base,
      details: { ...base.details, ...overflow },
    });
  }
  if (status >= 400 && status < 500) {
    if (overflow !== undefined || (status === 413 && !media)) {
      return new LoushoError(
        'LOUSHO_CONTEXT_OVERFLOW',
        `The request is longer than ${where}'s context window: ${text}`,
        {
          ...base,
          details: { ...base.details, ...overflow },
        },
      );
    }
    if (media) {
      const param = (failure.body as { error?: { param?: unknown } } | undefined)?.error?.param;
      const index = mediaMessageIndex(typeof param === 'string' ? `${text} ${param}` : text);
      return new LoushoError('LOUSHO_MEDIA_TOO_LARGE', `${where} rejected an image or file as too large: ${text}`, {
        ...base,
        details: { ...base.details, ...(index === undefined ? {} : { messageIndex: index }) },
      });
    }
    return new LoushoError('LOUSHO_PROVIDER_FAILED', `${where} rejected the request (${status}): ${text}`, base);
  }
  return new LoushoError('LOUSHO_PROVIDER_FAILED', `${where} failed (${status}): ${text}`, {
    ...base,
    isRetryable: true,
  });
}
