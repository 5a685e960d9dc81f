import { LoushoError } from '../errors/lousho-error.js';
import type { SessionStore } from './store.js';

type Named = Pick<SessionStore, 'description'>;

/** Thrown inside a store when it finds something it did not write; typed as LOUSHO_STORE_INVALID by guarded(). */
export class NotWrittenHere extends Error {}

/** The error for an append whose expected version is no longer the session's. */
export function conflict(store: Named, id: string, expected: number, actual: number | string): LoushoError {
  return new LoushoError(
    'LOUSHO_SESSION_CONFLICT',
    `Session '${id}' in ${store.description} changed since this process read it (version ${expected}, now ${actual}): ` +
      'another process took it over or cleared it. Nothing was written; open the session again to see its current state.',
    { details: { id, store: store.description, expected, actual } },
  );
}

/** The error for an append fenced by a lease (AppendOptions.holder) that `holder` no longer holds. */
export function leaseLost(store: Named, id: string, holder: string): LoushoError {
  return new LoushoError(
    'LOUSHO_SESSION_CONFLICT',
    `Session '${id}' in ${store.description} is no longer held by this writer (${holder}): its lease ran out and ` +
      'another process took the session over. Nothing was written; open the session again to see its current state.',
    { details: { id, store: store.description, holder } },
  );
}

/** The error of a save made after its operation ended (an aborted run whose tools went on): nothing is written. */
export function lateSave(store: Named, id: string): LoushoError {
  return new LoushoError(
    'LOUSHO_SESSION_CONFLICT',
    `Session '${id}' in ${store.description}: a save came after its operation had ended and let go of the session ` +
      '(a run that was aborted while its tools went on); it was not written.',
    { details: { id, store: store.description } },
  );
}

/** The error for saved content that is not what this library wrote; it is left as it is. */
export function storeInvalid(store: Named, id: string, what: string, cause?: unknown): LoushoError {
  const why = cause === undefined ? '' : ` (${(cause as Error).message ?? String(cause)})`;
  return new LoushoError(
    'LOUSHO_STORE_INVALID',
    `Session '${id}' in ${store.description}: ${what}${why}. It was left as it is: move it away or delete it ` +
      'to start the session afresh.',
    { cause, details: { id, store: store.description } },
  );
}

/** The error for a session id the store cannot keep. */
export function storeIdInvalid(store: Named, id: string, why: string, cause?: unknown): LoushoError {
  return new LoushoError(
    'LOUSHO_STORE_ID_INVALID',
    `${store.description} cannot keep session '${id.length > 80 ? `${id.slice(0, 80)}...` : id}': ${why}. Use a shorter id, ` +
      'such as a UUID or a hash of this one.',
    { cause, details: { id, store: store.description } },
  );
}

/** A UTF-16 code unit that is half of no pair. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The longest session id every store keeps, in UTF-8 bytes. */
export const MAX_SESSION_ID_BYTES = 128;

/**
 * The one rule for session ids on every store: a non-empty string of valid Unicode (no lone
 * surrogate, no U+0000) of at most MAX_SESSION_ID_BYTES UTF-8 bytes. Anything else is
 * LOUSHO_STORE_ID_INVALID, so no two ids can ever be stored as one (a driver that turns a
 * lone surrogate into U+FFFD would otherwise merge them).
 */
export function checkId(store: Named, id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '')
    throw storeIdInvalid(store, String(id), 'a session id is a non-empty string');
  if (LONE_SURROGATE.test(id)) {
    throw storeIdInvalid(store, id.replace(/\p{Cs}/gu, '\uFFFD'), 'it holds a lone surrogate (not valid Unicode)');
  }
  if (id.includes('\u0000')) throw storeIdInvalid(store, id, 'it holds U+0000');
  const bytes = Buffer.byteLength(id);
  if (bytes > MAX_SESSION_ID_BYTES) {
    throw storeIdInvalid(store, id, `it is ${bytes} UTF-8 bytes long, over the limit of ${MAX_SESSION_ID_BYTES}`);
  }
}

/**
 * Turns what a store's backend threw into a typed error naming the session and the store:
 * a directory or other object where the store expected its own data is LOUSHO_STORE_INVALID,
 * a name too long for the file system LOUSHO_STORE_ID_INVALID, the rest LOUSHO_STORE_FAILED.
 */
export function storeFailure(store: Named, id: string, action: string, cause: unknown): LoushoError {
  if (LoushoError.isInstance(cause)) return cause;
  if (cause instanceof NotWrittenHere) return storeInvalid(store, id, cause.message);
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (code === 'ENAMETOOLONG') return storeIdInvalid(store, id, 'the file name would be too long', cause);
  if (code === 'EISDIR')
    return storeInvalid(store, id, 'a directory is where the store keeps a file of the session', cause);
  const message = cause instanceof Error ? cause.message : String(cause);
  return new LoushoError(
    'LOUSHO_STORE_FAILED',
    `${store.description} could not ${action} session '${id}': ${message}. Check that the store is reachable and ` +
      'writable by this process; nothing was changed.',
    { cause, details: { id, store: store.description, ...(typeof code === 'string' ? { errno: code } : {}) } },
  );
}

/** Runs a store operation and types whatever it throws (see storeFailure). */
export async function guarded<T>(store: Named, id: string, action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    throw storeFailure(store, id, action, cause);
  }
}
