import type { LLMProvider } from '../contracts/llm-provider.js';
import type { ModelRequest } from '../contracts/model-request.js';
import { checkNumber } from '../errors/check-options.js';
import { LoushoError } from '../errors/lousho-error.js';

/** How long a provider call may take; every built-in provider takes these options. */
export interface TimeoutOptions {
  /** Longest a whole call may take, a streamed reply (and the provider's retries) included, in ms. Default 600,000 (10 min). */
  requestTimeoutMs?: number;
  /** Longest a streamed reply may go without a chunk (the first one included), in ms. Default 120,000 (2 min). */
  streamIdleTimeoutMs?: number;
}

/** requestTimeoutMs when none is given: 10 minutes. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;
/** streamIdleTimeoutMs when none is given: 2 minutes. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

/** The option names, for a provider's list of the options it takes. */
export const TIMEOUT_OPTION_KEYS = ['requestTimeoutMs', 'streamIdleTimeoutMs'] as const;

/** Throws LOUSHO_CONFIG_INVALID on a timeout that is not a positive number of ms. */
export function checkTimeoutOptions(options: TimeoutOptions, where: string): void {
  for (const key of TIMEOUT_OPTION_KEYS) checkNumber(options[key], key, where, { min: 0, exclusiveMin: true });
}

function timeoutError(provider: LLMProvider, limit: keyof TimeoutOptions, ms: number): LoushoError {
  const what = limit === 'requestTimeoutMs' ? 'took longer than' : 'sent no chunk of its streamed reply for';
  return new LoushoError(
    'LOUSHO_PROVIDER_TIMEOUT',
    `${provider.provider}/${provider.modelId} ${what} ${limit} (${ms} ms), so the call was ended. ` +
      `Raise ${limit} in the provider's options if the model is slow, or check that the server is answering.`,
    { isRetryable: true, details: { provider: provider.provider, model: provider.modelId, limit, ms } },
  );
}

/** A controller that fires with the caller's signal, for one call. */
function linked(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal?.aborted === true) controller.abort(signal.reason);
  else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** `work`, or a rejection with `error()` after `ms` (aborting the call's controller). */
function within<T>(work: Promise<T>, ms: number, controller: AbortController, error: () => LoushoError): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = error();
      controller.abort(e);
      reject(e);
    }, ms);
  });
  work.catch(() => undefined); // a call that lost the race may still reject, unread
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * The provider with a request timeout on every call (a compaction's too) and a stream-idle
 * timeout on every streamed reply. A call that runs out gets LOUSHO_PROVIDER_TIMEOUT (retryable, naming the provider and
 * the limit) and its request is aborted; the caller's abortSignal still ends a call at once.
 */
export function withTimeouts(provider: LLMProvider, options: TimeoutOptions): LLMProvider {
  const requestMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const idleMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const withSignal = (request: ModelRequest, signal: AbortSignal): ModelRequest => ({
    ...request,
    abortSignal: signal,
  });
  /** One call bounded by requestTimeoutMs, its request aborted when the time runs out. */
  const timed = <T>(call: (request: ModelRequest) => Promise<T>, request: ModelRequest): Promise<T> => {
    const controller = linked(request.abortSignal);
    return within(call(withSignal(request, controller.signal)), requestMs, controller, () =>
      timeoutError(provider, 'requestTimeoutMs', requestMs),
    );
  };
  const compact = provider.compact?.bind(provider);
  return {
    ...provider,
    generate: (request) => timed((r) => provider.generate(r), request),
    ...(compact === undefined ? {} : { compact: (request: ModelRequest) => timed(compact, request) }),
    async *stream(request) {
      const controller = linked(request.abortSignal);
      const deadline = Date.now() + requestMs;
      const parts = provider.stream(withSignal(request, controller.signal))[Symbol.asyncIterator]();
      let finished = false;
      try {
        for (;;) {
          const left = deadline - Date.now();
          const idle = idleMs < left;
          const next = await within(parts.next(), Math.max(0, idle ? idleMs : left), controller, () =>
            idle
              ? timeoutError(provider, 'streamIdleTimeoutMs', idleMs)
              : timeoutError(provider, 'requestTimeoutMs', requestMs),
          );
          if (next.done === true) {
            finished = true;
            return;
          }
          yield next.value;
        }
      } finally {
        if (!finished) {
          controller.abort();
          void parts.return?.()?.catch(() => undefined);
        }
      }
    },
  };
}
