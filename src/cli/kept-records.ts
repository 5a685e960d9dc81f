/**
 * Writing a transcript back into the file it was read from without losing what lousho does not
 * read: the fields of a record (a message, an item) that no converter takes, such as
 * mini-swe-agent's `extra`, survive only in the file's own records. Each record written is
 * paired with the record of the file it stands for, and keeps from it every value that did
 * not change.
 */

/** A plain JSON object (not an array, not bytes). */
function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const CALL_ID_KEYS = ['tool_call_id', 'call_id', 'toolCallId', 'tool_use_id'] as const;

/** The ids of the tool calls a record makes or answers, in every format's spelling. */
function callIds(record: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const take = (item: unknown, own: boolean) => {
    if (!isPlain(item)) return;
    for (const key of CALL_ID_KEYS) if (typeof item[key] === 'string') ids.push(item[key]);
    if (own && typeof item.id === 'string') ids.push(item.id);
  };
  take(record, record.type === 'function_call');
  for (const key of ['tool_calls', 'toolCalls']) for (const call of asList(record[key])) take(call, true);
  for (const part of asList(record.content)) take(part, isPlain(part) && /call|tool_use/.test(String(part.type)));
  return ids;
}
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * What a record is, whatever its text: its role, item type and call ids. Records that match here
 * may stand for one another; only those with call ids (marked by no leading '~') name one record.
 */
function signature(record: unknown): string {
  if (!isPlain(record)) return `~${JSON.stringify(record)}`;
  const type = record.type === 'message' ? undefined : record.type;
  const ids = callIds(record);
  return `${ids.length === 0 ? '~' : ''}${JSON.stringify([record.role, type, ids])}`;
}
/** Whether a key names one record: an exact one always, a loose one when it has call ids. */
const names = (key: string, kind: 'exact' | 'loose') => kind === 'exact' || !key.startsWith('~');

/**
 * Pairs the records of `b` with those of `a` they stand for: in order, equal `exact` keys first
 * (a common start and end, then keys unique on both sides as anchors), a stretch of the same
 * length and the same `loose` keys position by position, then `loose` keys with call ids unique
 * on both sides; and last, out of order, a key of either kind that names one record among what
 * is left on each side (a record moved). Returns, for each index of `b`, the index of `a` it
 * stands for, or undefined for a new record.
 */
function pairUp(a: { exact: string[]; loose: string[] }, b: { exact: string[]; loose: string[] }) {
  const of: (number | undefined)[] = b.exact.map(() => undefined);
  const inOrder = (a0: number, a1: number, b0: number, b1: number, key: 'exact' | 'loose'): void => {
    while (a0 < a1 && b0 < b1 && a.exact[a0] === b.exact[b0]) of[b0++] = a0++;
    while (a0 < a1 && b0 < b1 && a.exact[a1 - 1] === b.exact[b1 - 1]) of[--b1] = --a1;
    if (a0 === a1 || b0 === b1) return;
    if (a1 - a0 === b1 - b0 && a.loose.slice(a0, a1).every((k, i) => k === b.loose[b0 + i])) {
      for (let i = 0; b0 + i < b1; i++) of[b0 + i] = a0 + i;
      return;
    }
    const named = (keys: string[]) => (i: number) => names(keys[i] as string, key);
    const anchors = increasing(unique(a[key], a0, a1, named(a[key])), unique(b[key], b0, b1, named(b[key])));
    if (anchors.length === 0) {
      if (key === 'exact') inOrder(a0, a1, b0, b1, 'loose');
      return;
    }
    let [pa, pb] = [a0, b0];
    for (const [ai, bi] of anchors) {
      inOrder(pa, ai, pb, bi, key);
      of[bi] = ai;
      [pa, pb] = [ai + 1, bi + 1];
    }
    inOrder(pa, a1, pb, b1, key);
  };
  inOrder(0, a.exact.length, 0, b.exact.length, 'exact');
  // What is left pairs out of order (a record moved) by a key that names one record on each side.
  for (const kind of ['exact', 'loose'] as const) {
    const used = new Set(of);
    const leftA = unique(a[kind], 0, a[kind].length, (i) => !used.has(i) && names(a[kind][i] as string, kind));
    const leftB = unique(b[kind], 0, b[kind].length, (i) => of[i] === undefined && names(b[kind][i] as string, kind));
    for (const [k, bi] of leftB) {
      const ai = leftA.get(k);
      if (ai !== undefined) of[bi] = ai;
    }
  }
  return of;
}

/** The keys that occur once in `keys[from, to)` (among the indexes `keep` accepts), with their index. */
function unique(keys: string[], from: number, to: number, keep = (_i: number) => true): Map<string, number> {
  const seen = new Map<string, number>();
  for (let i = from; i < to; i++) if (keep(i)) seen.set(keys[i] as string, seen.has(keys[i] as string) ? -1 : i);
  for (const [key, i] of seen) if (i < 0) seen.delete(key);
  return seen;
}

/** The longest run of keys found on both sides whose indexes grow on both (patience sorting), as [a, b] index pairs. */
function increasing(a: Map<string, number>, b: Map<string, number>): [number, number][] {
  const both = [...b].flatMap(([key, bi]): [number, number][] => (a.has(key) ? [[a.get(key) as number, bi]] : []));
  both.sort((x, y) => x[1] - y[1]);
  const tails: number[] = [];
  const back: number[] = [];
  both.forEach(([ai], n) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((both[tails[mid] as number] as [number, number])[0] < ai) lo = mid + 1;
      else hi = mid;
    }
    back[n] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = n;
  });
  const run: [number, number][] = [];
  for (let n = tails.at(-1) ?? -1; n >= 0; n = back[n] as number) run.unshift(both[n] as [number, number]);
  return run;
}

/**
 * `now`, keeping from `file` what lousho did not change: `file` itself where `now` says what
 * `before` said (the file's record as read and written again); else, field by field and part by
 * part, the file's fields that `before` does not have (those lousho does not read) beside the
 * values of `now`.
 */
export function keepUnread(file: unknown, before: unknown, now: unknown): unknown {
  if (JSON.stringify(now) === JSON.stringify(before)) return file;
  if (Array.isArray(now)) {
    const alike = Array.isArray(file) && Array.isArray(before) && file.length === now.length;
    return alike && before.length === now.length ? now.map((item, i) => keepUnread(file[i], before[i], item)) : now;
  }
  if (!isPlain(file) || !isPlain(before) || !isPlain(now)) return now;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(file)) {
    if (Object.hasOwn(now, key)) out[key] = keepUnread(file[key], before[key], now[key]);
    else if (!Object.hasOwn(before, key)) out[key] = file[key];
  }
  for (const key of Object.keys(now)) if (!Object.hasOwn(out, key)) out[key] = now[key];
  return out;
}

/**
 * The records to write back: `written` (the new transcript in the file's format), where each
 * record that stands for a record of the file keeps from it what did not change (see
 * {@link keepUnread}); a record that equals what was read is the file's record, every field of
 * it. `records` are the file's records, `before` the transcript as read, written the same way.
 * `from` gives, for each record written, the index of the file's record it stands for (undefined
 * for a new one), so that its text can be kept too (see json-splice.ts).
 */
export function keptRecords(records: readonly unknown[], before: readonly unknown[], written: readonly unknown[]) {
  const keys = (list: readonly unknown[]) => {
    const loose = list.map(signature);
    return { exact: list.map((r) => JSON.stringify(r)), loose };
  };
  const read = keys(before);
  // A record read and written again keeps what it says, mostly in the same words: what it is and says pairs it first.
  const says = (list: readonly unknown[]) =>
    list.map((r) => (isPlain(r) ? JSON.stringify([signature(r), r.content ?? r.output]) : JSON.stringify(r)));
  const fileOf = pairUp(
    { exact: says(records), loose: records.map(signature) },
    { exact: says(before), loose: read.loose },
  );
  const beforeOf = pairUp(read, keys(written));
  const from = written.map((_, i) => {
    const j = beforeOf[i];
    return j === undefined ? undefined : fileOf[j];
  });
  const kept = written.map((record, i) => {
    const [j, k] = [beforeOf[i], from[i]];
    return j === undefined || k === undefined ? record : keepUnread(records[k], before[j], record);
  });
  return { records: kept, from };
}
