import { contentText } from '../messages/content.js';
import type { Message } from '../messages/types.js';
import { argumentsText } from '../models/estimate-tokens.js';
import { digestOf } from './digest.js';
import { digestMarker, prunedMarker } from './marker.js';

/** Characters a digest marker's list of names may take by default. */
export const DEFAULT_DIGEST_CHARS = 160;

/** How a prune writes the marker of a result, and what it is shown of the messages it walks past. */
export interface MarkerWriter {
  /** A message the prune walks past (or a marker it just wrote): what the request shows before the next result. */
  see(message: Message): void;
  /** The marker of the result `message` of the call `name(args)`, `chars` characters long. */
  write(name: string, args: unknown, chars: number, message: Message): string;
}

/** The seed's marker: `[pruned: read({"path":"a.ts"}) result, 18234 chars; already read]`. It is shown nothing. */
export const stubMarkers: MarkerWriter = {
  see() {},
  write: (name, args, chars) => prunedMarker(name, args, chars),
};

/** The names in a text, which a digest of a later result need not repeat. */
function namesIn(text: string): string[] {
  return text.match(/[\w./-]{3,}/g) ?? [];
}

/**
 * Digest markers: `[pruned: read result, 18234 chars; already read; it showed: a.ts, Foo]`,
 * whose list of names (within `digestChars`) leaves out what the request already shows
 * before the result: the names of every message walked past, kept in `shown` (a layer that
 * prunes as it goes passes the same set at every step).
 */
export function digestMarkers(digestChars = DEFAULT_DIGEST_CHARS, shown = new Set<string>()): MarkerWriter {
  const show = (text: string) => {
    for (const name of namesIn(text)) shown.add(name);
  };
  return {
    see(message) {
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) show(argumentsText(call.arguments));
      show(contentText(message.content));
    },
    write(name, _args, chars, message) {
      const digest = digestOf(contentText(message.content), digestChars, shown);
      return digestMarker(name, chars, digest === '' ? [] : [`it showed: ${digest}`]);
    },
  };
}
