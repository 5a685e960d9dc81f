import { LoushoError } from '../errors/lousho-error.js';

/** The LoushoError a promise rejects with; fails when it resolves or rejects with something else. */
export async function rejection(promise: Promise<unknown>): Promise<LoushoError> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (LoushoError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected a LoushoError, but the promise resolved to ${JSON.stringify(value)?.slice(0, 300)}`);
}

/** The LoushoError a function throws; fails when it returns or throws something else. */
export function thrown(fn: () => unknown): LoushoError {
  try {
    fn();
  } catch (error) {
    if (LoushoError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a LoushoError to be thrown');
}
