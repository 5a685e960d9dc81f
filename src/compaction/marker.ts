import { argumentsText } from '../models/estimate-tokens.js';

/** Arguments longer than this many characters are cut in a marker. */
export const MARKER_ARGS_MAX_CHARS = 120;

const CURRENT = /^\[pruned: [\s\S]* result, \d+ chars; already read\]$/;
const OLDER = /^\[pruned: [^\s(]+ result, \d+ chars\]$/;

/**
 * The marker that replaces a pruned tool result:
 * `[pruned: search({"query":"deploy"}) result, 18234 chars; already read]`.
 */
export function prunedMarker(toolName: string, args: unknown, chars: number): string {
  let text = argumentsText(args);
  if (text.length > MARKER_ARGS_MAX_CHARS) text = `${text.slice(0, MARKER_ARGS_MAX_CHARS)}…`;
  return `[pruned: ${toolName}(${text}) result, ${chars} chars; already read]`;
}

/** True for a marker of either form: the current one, or the older `[pruned: NAME result, N chars]`. */
export function isPrunedMarker(text: string): boolean {
  return text.startsWith('[pruned: ') && (CURRENT.test(text) || OLDER.test(text));
}
