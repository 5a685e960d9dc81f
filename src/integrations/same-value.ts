/**
 * True when two JSON-like values hold the same data: plain objects and arrays compared
 * member by member (a key set to undefined counts as absent), bytes byte by byte, URLs by
 * href. Its cost is the size of what it compares; strings compare natively, and nothing is
 * allocated (it runs on every turn of a session, inside hosts whose heaps are large).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (a instanceof URL || b instanceof URL) return a instanceof URL && b instanceof URL && a.href === b.href;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], other[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key) || x[key] === undefined) continue;
    defined++;
    if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false;
  }
  for (const key in y) if (Object.hasOwn(y, key) && y[key] !== undefined) defined--;
  return defined === 0;
}
