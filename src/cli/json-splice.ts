/**
 * A JSON file written again with new values, keeping the file's own text for every value that did
 * not change: an unchanged value is its span of the file, byte for byte (number spellings such as
 * 3.0 and 1e3, escapes, key order, the indentation inside it); a changed object or array keeps
 * the text of its unchanged members and items, and what is new is laid out in the file's style.
 * What is before and after the document (a trailing newline, or none) stays as it was.
 */
import { type JsonStyle, jsonLines, type Span, scanJson, styleOf } from './json-spans.js';

/** For each item of a new array, the index of the file's item it stands for, or undefined for a new one. */
export type Pairing = readonly (number | undefined)[];

/** Where the records of a transcript are (the document itself, or its `key`), and the file's record each stands for. */
export interface RecordsAt {
  key?: string;
  from: Pairing;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` (plain JSON: what JSON.parse gives) as new text in `style`, at `depth` levels of nesting. */
export function serializeJson(value: unknown, style: JsonStyle, depth = 0): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const parts = Array.isArray(value)
    ? value.map((item) => serializeJson(item, style, depth + 1))
    : Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${style.colon}${serializeJson(v, style, depth + 1)}`);
  return wrap(Array.isArray(value) ? '[]' : '{}', parts, style, depth);
}

function wrap(brackets: string, parts: string[], style: JsonStyle, depth: number): string {
  if (parts.length === 0) return brackets;
  if (style.indent === undefined) return `${brackets[0]}${parts.join(style.comma)}${brackets[1]}`;
  const pad = (n: number) => `${style.eol}${style.indent?.repeat(n)}`;
  return `${brackets[0]}${pad(depth + 1)}${parts.join(`,${pad(depth + 1)}`)}${pad(depth)}${brackets[1]}`;
}

/** Writes values over the spans of one text. */
function splicer(text: string, style: JsonStyle) {
  const canonical = new Map<Span, string>();
  const same = (value: unknown, span: Span) => {
    let was = canonical.get(span);
    if (was === undefined) {
      was = JSON.stringify(JSON.parse(text.slice(span.start, span.end)));
      canonical.set(span, was);
    }
    return was === JSON.stringify(value);
  };
  /** The text of `span` with each of `parts`' spans replaced by its new text. */
  const inPlace = (span: Span, parts: { at: Span; text: string }[]) => {
    let out = '';
    let from = span.start;
    for (const part of parts) {
      out += text.slice(from, part.at.start) + part.text;
      from = part.at.end;
    }
    return out + text.slice(from, span.end);
  };
  const write = (value: unknown, span: Span | undefined, depth: number, from?: Pairing, inner?: RecordsAt): string => {
    if (span === undefined) return serializeJson(value, style, depth);
    if (same(value, span)) return text.slice(span.start, span.end);
    const child = (v: unknown, at: Span | undefined, key?: string) =>
      key !== undefined && key === inner?.key ? write(v, at, depth + 1, inner.from) : write(v, at, depth + 1);
    if (isObject(value) && span.members !== undefined) {
      const members = span.members;
      const keys = Object.keys(value);
      const byKey = new Map(members.map((m) => [m.key, m]));
      if (
        byKey.size === members.length &&
        keys.length === members.length &&
        keys.every((k, i) => k === members[i]?.key)
      )
        return inPlace(
          span,
          members.map((m) => ({ at: m.value, text: child(value[m.key], m.value, m.key) })),
        );
      const parts = keys.map((k) => {
        const m = byKey.get(k);
        const name = m === undefined ? `${JSON.stringify(k)}${style.colon}` : text.slice(m.keyStart, m.value.start);
        return `${name}${child(value[k], m?.value, k)}`;
      });
      return wrap('{}', parts, style, depth);
    }
    if (Array.isArray(value) && span.items !== undefined) {
      const items = span.items;
      const pairs = from ?? (value.length === items.length ? value.map((_, i) => i) : []);
      if (value.length === items.length && pairs.every((j, i) => j === i))
        return inPlace(
          span,
          items.map((at, i) => ({ at, text: child(value[i], at) })),
        );
      const at = (i: number) => {
        const j = pairs[i];
        return j === undefined ? undefined : items[j];
      };
      return wrap(
        '[]',
        value.map((item, i) => child(item, at(i))),
        style,
        depth,
      );
    }
    return serializeJson(value, style, depth);
  };
  return write;
}

/**
 * `value` (plain JSON) written over the JSON document `text`: see the file's comment. `records`
 * says which array holds the records and which record of the file each new one stands for.
 */
export function spliceJson(text: string, value: unknown, records: RecordsAt): string {
  const root = scanJson(text);
  const write = splicer(text, styleOf(text, root));
  const body =
    records.key === undefined ? write(value, root, 0, records.from) : write(value, root, 0, undefined, records);
  return text.slice(0, root.start) + body + text.slice(root.end);
}

/**
 * `list` (plain JSON records) written over the JSON lines `text`: a record that stands for a line
 * of the file and did not change is that line as it was; the file's blank lines around the
 * records, and its line ends, are kept.
 */
export function spliceJsonLines(text: string, list: readonly unknown[], from: Pairing): string {
  const lines = jsonLines(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = lines[0];
  const style = first === undefined ? { eol, colon: ':', comma: ',' } : styleOf(text, scanJson(text, first.start));
  const write = splicer(text, style);
  const written = list.map((record, i) => {
    const j = from[i];
    const line = j === undefined ? undefined : lines[j];
    if (line === undefined) return serializeJson(record, style);
    const span = scanJson(text, line.start);
    return text.slice(line.start, span.start) + write(record, span, 0) + text.slice(span.end, line.end);
  });
  const start = first?.start ?? 0;
  const end = lines.at(-1)?.end ?? 0;
  return text.slice(0, start) + written.join(eol) + text.slice(end);
}
