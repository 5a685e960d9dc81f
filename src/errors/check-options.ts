import { configError } from './lousho-error.js';

/**
 * Checks that `value` is an options object (or undefined) whose keys are all among
 * `accepted`; throws LOUSHO_CONFIG_INVALID naming the unknown key and the accepted ones.
 * Keys whose value is undefined are ignored, so `{ ...defaults, ...overrides }` passes.
 *
 * @example
 * checkOptions(options, 'createAgent()', ['model', 'provider', 'tools']);
 */
export function checkOptions<T extends object>(
  value: unknown,
  where: string,
  accepted: readonly (keyof T & string)[],
): asserts value is T | undefined {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw configError(`${where} takes an options object ({ ${accepted.join(', ')} }), got ${describe(value)}.`);
  }
  const known = new Set<string>(accepted);
  const unknown = Object.keys(value).filter(
    (k) => !known.has(k) && (value as Record<string, unknown>)[k] !== undefined,
  );
  if (unknown.length > 0) {
    const names = unknown.map((k) => `'${k}'`).join(', ');
    throw configError(
      `${where} has unknown option${unknown.length > 1 ? 's' : ''} ${names}; it takes ${accepted.join(', ')}. ` +
        'Check the spelling, or remove it.',
      { option: unknown[0] },
    );
  }
}

/** A short description of a value for an error message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Throws LOUSHO_CONFIG_INVALID unless the value is undefined or a finite number in [min, max]. */
export function checkNumber(
  value: unknown,
  option: string,
  where: string,
  range: { min?: number; max?: number; integer?: boolean; exclusiveMin?: boolean } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const { min, max, integer = false, exclusiveMin = false } = range;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (min === undefined || (exclusiveMin ? value > min : value >= min)) &&
    (max === undefined || value <= max);
  if (!ok) {
    const bounds = [
      min === undefined ? '' : `${exclusiveMin ? '>' : '>='} ${min}`,
      max === undefined ? '' : `<= ${max}`,
    ]
      .filter(Boolean)
      .join(' and ');
    throw configError(
      `${where}: ${option} must be ${integer ? 'a whole number' : 'a number'}${bounds === '' ? '' : ` ${bounds}`}, got ${describe(value)}.`,
      { option },
    );
  }
  return value as number;
}
