import { argumentsText } from '../models/estimate-tokens.js';

/** Arguments longer than this many characters are cut in a marker. */
export const MARKER_ARGS_MAX_CHARS = 120;

const CURRENT = /^\[pruned: [\s\S]* result, \d+ chars; already read(?:; [\s\S]*)?\]$/;
const OLDER = /^\[pruned: [^\s(]+ result, \d+ chars\]$/;

/**
 * The marker that replaces a pruned tool result:
 * `[pruned: search({"query":"deploy"}) result, 18234 chars; already read]`. `notes` are
 * appended before the closing bracket, each after '; ' (the names a digest kept, how to
 * recall the result); the seed's form has none.
 */
export function prunedMarker(toolName: string, args: unknown, chars: number, notes: readonly string[] = []): string {
  let text = argumentsText(args);
  if (text.length > MARKER_ARGS_MAX_CHARS) text = `${text.slice(0, MARKER_ARGS_MAX_CHARS)}…`;
  const extra = notes
    .filter((n) => n !== '')
    .map((n) => `; ${n}`)
    .join('');
  return `[pruned: ${toolName}(${text}) result, ${chars} chars; already read${extra}]`;
}

/**
 * The digest form of a marker: `[pruned: read result, 18234 chars; already read; it showed: a.ts, Foo]`.
 * It leaves out the call's arguments, which the call just before it shows (pruning never
 * separates the two), to spend its tokens on what the result showed; its names leave out
 * what the request already shows.
 */
export function digestMarker(toolName: string, chars: number, notes: readonly string[]): string {
  const extra = notes
    .filter((n) => n !== '')
    .map((n) => `; ${n}`)
    .join('');
  return `[pruned: ${toolName} result, ${chars} chars; already read${extra}]`;
}

/** True for a marker of either form: the current one (with or without notes), or the older `[pruned: NAME result, N chars]`. */
export function isPrunedMarker(text: string): boolean {
  return text.startsWith('[pruned: ') && (CURRENT.test(text) || OLDER.test(text));
}
