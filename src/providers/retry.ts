import { checkNumber, checkOptions } from '../errors/check-options.js';
import { abortedError, LoushoError } from '../errors/lousho-error.js';

/** How a provider retries rate limits (429) and server errors (5xx). */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  maxRetries?: number;
  /** The first backoff when the provider gave no retry-after. Default 1,000 ms, doubling each time. */
  initialDelayMs?: number;
  /** The longest wait; a retry-after longer than this fails at once instead. Default 60,000 ms. */
  maxDelayMs?: number;
}

/**
 * Resolves after `ms`, or rejects with LOUSHO_ABORTED as soon as `signal` fires (at once
 * when it already has).
 */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before retry number `attempt` (from 0), or undefined when the error must not be retried. */
export function retryDelay(error: unknown, attempt: number, options: RetryOptions = {}): number | undefined {
  if (!LoushoError.isInstance(error) || !error.isRetryable) return undefined;
  if (attempt >= (options.maxRetries ?? 2)) return undefined;
  const max = options.maxDelayMs ?? 60_000;
  const hinted = error.details?.retryAfterMs;
  if (typeof hinted === 'number') return hinted <= max ? hinted : undefined;
  return Math.min(max, (options.initialDelayMs ?? 1_000) * 2 ** attempt);
}

/** Calls `attempt` until it succeeds or fails in a way that must not be retried; bounded by maxRetries. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = retryDelay(error, n, options);
      if (delay === undefined || signal?.aborted === true) throw error;
      await abortableDelay(delay, signal);
    }
  }
}

/**
 * Streams with retries: a stream that fails before its first part is started again;
 * one that fails after it has yielded is not (the caller already saw part of it).
 */
export async function* streamWithRetries<T>(
  start: () => AsyncIterable<T>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
): AsyncIterable<T> {
  for (let n = 0; ; n++) {
    let yielded = false;
    try {
      for await (const part of start()) {
        yielded = true;
        yield part;
      }
      return;
    } catch (error) {
      const delay = yielded ? undefined : retryDelay(error, n, options);
      if (delay === undefined || signal?.aborted === true) throw error;
      await abortableDelay(delay, signal);
    }
  }
}

/** Throws LOUSHO_CONFIG_INVALID on retry options that are not { maxRetries?, initialDelayMs?, maxDelayMs? } with numbers >= 0. */
export function checkRetryOptions(retry: unknown): void {
  checkOptions<RetryOptions>(retry, 'retry', ['maxRetries', 'initialDelayMs', 'maxDelayMs']);
  const r = (retry ?? {}) as RetryOptions;
  checkNumber(r.maxRetries, 'retry.maxRetries', 'retry', { min: 0, integer: true });
  checkNumber(r.initialDelayMs, 'retry.initialDelayMs', 'retry', { min: 0 });
  checkNumber(r.maxDelayMs, 'retry.maxDelayMs', 'retry', { min: 0 });
}
