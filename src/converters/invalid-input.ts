import { LoushoError } from '../errors/lousho-error.js';

/**
 * The LOUSHO_MESSAGE_INVALID error of a converter: `where` names the converter, `path`
 * the message (and part) at fault, `problem` what is wrong and `fix` how to fix it.
 */
export function invalidInput(where: string, path: string, index: number, problem: string, fix: string): LoushoError {
  return new LoushoError('LOUSHO_MESSAGE_INVALID', `${where}: ${path} ${problem}. ${fix}`, {
    details: { index, path },
  });
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws LOUSHO_MESSAGE_INVALID unless `value` is an array of messages. */
export function checkArray(where: string, value: unknown, what = 'messages'): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new LoushoError(
      'LOUSHO_MESSAGE_INVALID',
      `${where} takes an array of ${what}, got ${value === null ? 'null' : typeof value}. Pass the ${what} array itself.`,
    );
  }
}

/** A required non-empty string field, or LOUSHO_MESSAGE_INVALID naming it. */
export function requireString(
  where: string,
  path: string,
  index: number,
  value: unknown,
  field: string,
  fix: string,
): string {
  if (typeof value === 'string' && value !== '') return value;
  throw invalidInput(where, path, index, `has no ${field} (a non-empty string)`, fix);
}
