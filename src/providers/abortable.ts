import { abortedError } from '../errors/lousho-error.js';

/**
 * Settles like `promise`, or rejects with LOUSHO_ABORTED as soon as `signal` fires (for
 * clients that ignore the signal they were given).
 */
export function abortable<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => reject(abortedError());
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

/** Whether the signal has fired; a call, so TypeScript keeps no narrowing of `aborted` across an await. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
