import type { Message, MessageMetadata } from '../messages/types.js';

/**
 * A part (or item) of another format that our Message cannot hold, kept with its position
 * so that converting back puts it where it was. Carried parts live in the message's
 * metadata: they are never sent by this library and never counted or compacted.
 */
export interface CarriedPart {
  /** Its index among the parts of the original message. */
  at: number;
  /** The part as it was, unchanged. */
  part: unknown;
}

/** Splits parts into the ones `keep` accepts and the others, which are carried with their positions. */
export function splitCarried<T>(
  parts: readonly unknown[],
  keep: (part: unknown) => part is T,
): { kept: T[]; carried: CarriedPart[] } {
  const kept: T[] = [];
  const carried: CarriedPart[] = [];
  parts.forEach((part, at) => {
    if (keep(part)) kept.push(part);
    else carried.push({ at, part });
  });
  return { kept, carried };
}

/** Puts carried parts back at their positions among `parts` (at the end when the message got shorter). */
export function mergeCarried<T>(parts: T[], carried: readonly CarriedPart[] | undefined): (T | unknown)[] {
  if (carried === undefined || carried.length === 0) return parts;
  const out: unknown[] = parts.slice();
  for (const { at, part } of [...carried].sort((a, b) => a.at - b.at)) out.splice(Math.min(at, out.length), 0, part);
  return out;
}

/** The converter's own namespace of a message's metadata (e.g. `metadata.anthropic`), when it has one. */
export function namespaceOf<T extends object>(message: Message, key: string): Partial<T> | undefined {
  const value = message.metadata?.[key];
  return typeof value === 'object' && value !== null ? (value as Partial<T>) : undefined;
}

/** A field metadataWith() keeps: defined, and not an empty list. */
const isCarried = (v: unknown): boolean => v !== undefined && !(Array.isArray(v) && v.length === 0);

/** Whether `value` has a field metadataWith() keeps; it stops at the first. */
function carriesAny(value: Record<string, unknown>): boolean {
  for (const field in value) if (Object.hasOwn(value, field) && isCarried(value[field])) return true;
  return false;
}

/** `{ metadata: { [key]: value } }` when `value` has at least one defined field, else `{}`; for spreading into a message. */
export function metadataWith(
  key: string,
  value: Record<string, unknown>,
  base?: MessageMetadata,
): { metadata?: MessageMetadata } {
  // Most messages carry nothing: then nothing is allocated but what is returned.
  if (!carriesAny(value)) return base === undefined ? {} : { metadata: base };
  const fields = Object.entries(value).filter(([, v]) => isCarried(v));
  return { metadata: { ...base, [key]: Object.fromEntries(fields) } };
}

/**
 * An assistant's parts without empty text parts when it calls a tool: such a message reads
 * as text '' and is written back with no text part, so positions of carried parts stay true.
 */
export function dropEmptyTextBesideCalls(parts: readonly unknown[], isCall: (part: unknown) => boolean): unknown[] {
  if (!parts.some(isCall)) return parts.slice();
  return parts.filter(
    (p) => !((p as { type?: unknown; text?: unknown })?.type === 'text' && (p as { text?: unknown }).text === ''),
  );
}
