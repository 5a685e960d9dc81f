/**
 * Where each value of a JSON text is: a small scanner for text JSON.parse() has already read,
 * so that a file can be written back with the text of every value that did not change as the
 * file spelled it (3.0, 1e3, '\u00e9', its key order and indentation). See json-splice.ts.
 */

/** A value's span in the text, `[start, end)`, with those of its members or items. */
export interface Span {
  start: number;
  end: number;
  /** An object's members, in the order of the text. */
  members?: Member[];
  /** An array's items. */
  items?: Span[];
}

/** An object's member: its key as read, where the key's text is, and its value. */
export interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: Span;
}

const SPACE = new Set([' ', '\t', '\n', '\r']);

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.has(text[at] as string)) at++;
  return at;
}

/** The end of the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  for (;;) {
    if (quote < 0) throw new SyntaxError(`unterminated string at ${at}`);
    let slashes = 0;
    while (text[quote - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
}

/** The span of the JSON value at or after `at` (whitespace first is skipped). */
export function scanJson(text: string, at = 0): Span {
  const start = skipSpace(text, at);
  const first = text[start];
  if (first === '"') return { start, end: stringEnd(text, start) };
  if (first !== '{' && first !== '[') {
    let end = start;
    while (end < text.length && !SPACE.has(text[end] as string) && !',]}'.includes(text[end] as string)) end++;
    if (end === start) throw new SyntaxError(`no JSON value at ${start}`);
    return { start, end };
  }
  const close = first === '{' ? '}' : ']';
  const members: Member[] = [];
  const items: Span[] = [];
  let i = skipSpace(text, start + 1);
  while (text[i] !== close) {
    if (first === '{') {
      const keyEnd = stringEnd(text, i);
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      const colon = skipSpace(text, keyEnd);
      if (text[colon] !== ':') throw new SyntaxError(`no ':' at ${colon}`);
      const value = scanJson(text, colon + 1);
      members.push({ key, keyStart: i, keyEnd, value });
      i = skipSpace(text, value.end);
    } else {
      const item = scanJson(text, i);
      items.push(item);
      i = skipSpace(text, item.end);
    }
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] !== close) throw new SyntaxError(`expected ',' or '${close}' at ${i}`);
  }
  return first === '{' ? { start, end: i + 1, members } : { start, end: i + 1, items };
}

/** The spans of the lines of JSON lines that hold a value (blank lines apart), a line's '\r' left out. */
export function jsonLines(text: string): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  for (let start = 0; start <= text.length; ) {
    const next = text.indexOf('\n', start);
    const stop = next < 0 ? text.length : next;
    const end = text[stop - 1] === '\r' ? stop - 1 : stop;
    if (text.slice(start, end).trim() !== '') lines.push({ start, end });
    start = stop + 1;
  }
  return lines;
}

/** How a text lays out what it holds: an indent per level (undefined: all on one line), and what follows ':' and ','. */
export interface JsonStyle {
  indent?: string;
  eol: string;
  colon: string;
  comma: string;
}

/** The style of the text around `root`: its first members show the indent, the colon and the comma. */
export function styleOf(text: string, root: Span): JsonStyle {
  const children = root.members?.map((m) => ({ start: m.keyStart, end: m.value.end })) ?? root.items ?? [];
  const firstObject = root.members === undefined ? root.items?.find((s) => s.members?.length) : root;
  const member = firstObject?.members?.[0];
  const style: JsonStyle = {
    eol: '\n',
    colon: member ? text.slice(member.keyEnd, member.value.start) : ':',
    comma: ',',
  };
  const [one, two] = children;
  if (one === undefined) return style;
  const before = text.slice(root.start + 1, one.start);
  if (before.includes('\n')) {
    style.indent = before.slice(before.lastIndexOf('\n') + 1);
    style.eol = before.includes('\r\n') ? '\r\n' : '\n';
  } else if (two !== undefined) style.comma = text.slice(one.end, two.start);
  else if (style.colon.endsWith(' ')) style.comma = ', ';
  return style;
}
