import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepUnread, keptRecords } from './kept-records.js';

// Constructed records in the OpenAI chat shape; `x` stands for a field no converter reads.
type R = { role: string; content: unknown; tool_call_id?: string; x?: number };
const unread = (records: R[]) => records.map(({ x: _x, ...known }) => known);

describe('keptRecords()', () => {
  it('gives each of two equal records its own file record when the first one changed', () => {
    const file: R[] = [
      { role: 'user', content: 'go', x: 0 },
      { role: 'tool', content: 'same', tool_call_id: 'a', x: 1 },
      { role: 'tool', content: 'same', tool_call_id: 'a', x: 2 },
    ];
    const before = unread(file);
    const written = [before[0], { ...before[1], content: '[pruned]' }, before[2]];
    expect(keptRecords(file, before, written).records).toEqual([file[0], { ...file[1], content: '[pruned]' }, file[2]]);
  });

  it('writes a summary that replaced a stretch as it is, and the records after it as the file had them', () => {
    const file: R[] = [0, 1, 2, 3, 4].map((i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}`, x: i }));
    const before = unread(file);
    const summary = { role: 'user', content: 'summary of m1 to m3' };
    expect(keptRecords(file, before, [before[0], summary, before[4]]).records).toEqual([file[0], summary, file[4]]);
  });

  it('finds the file record of a record read in another place (a result moved to its call)', () => {
    const file: R[] = [
      { role: 'tool', content: 'late', tool_call_id: 'b', x: 0 },
      { role: 'user', content: 'and?', x: 1 },
    ];
    const before = [unread(file)[1], unread(file)[0]];
    expect(keptRecords(file, before, before).records).toEqual([file[1], file[0]]);
  });

  it('keeps every file record in order, whatever stays, changes or is replaced (random transcripts)', () => {
    const record = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 20 }), fc.nat(), fc.nat(), (known, from, span) => {
        const file = known.map((r, x) => ({ ...r, x }));
        const start = from % known.length;
        const end = Math.min(known.length, start + (span % 4));
        const written = [...known.slice(0, start), { role: 'user', content: 'SUMMARY' }, ...known.slice(end)];
        const out = keptRecords(file, known, written).records as R[];
        expect(out.map(({ x: _x, ...k }) => k)).toEqual(written);
        const xs = out.flatMap((r) => (r.x === undefined ? [] : [r.x]));
        expect(xs).toEqual([...xs].sort((a, b) => a - b));
        expect(new Set(xs).size).toBe(xs.length);
        // A record that stayed has its file record when the contents are all different; the
        // summary has none, unless it took the place of one record of its role (then it is that one, changed).
        if (new Set(known.map((r) => r.content)).size === known.length)
          expect(xs).toHaveLength(written.length - (end - start === 1 && known[start]?.role === 'user' ? 0 : 1));
      }),
      { numRuns: 500 },
    );
  });
});

describe('keepUnread()', () => {
  it('keeps the unread fields of a changed record and of its parts, and the parts that did not change as they were', () => {
    const file = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'long', cache: 1 },
        { type: 'text', text: 'ok', y: [1, 2] },
      ],
      x: 'kept',
    };
    const before = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'long' },
        { type: 'text', text: 'ok' },
      ],
    };
    const now = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'a', content: '[pruned]' }, before.content[1]],
    };
    const kept = keepUnread(file, before, now);
    expect(kept).toEqual({ ...file, content: [{ ...file.content[0], content: '[pruned]' }, file.content[1]] });
    expect(Object.keys(kept as object)).toEqual(['role', 'content', 'x']);
  });

  it('writes bytes as they are, and a field the change removed stays removed', () => {
    const image = new Uint8Array([1, 2, 3]);
    const now = { role: 'tool', content: [{ type: 'image', image }] };
    expect(
      keepUnread(
        { role: 'tool', content: 'was text', isError: true, x: 1 },
        { role: 'tool', content: 'was text', isError: true },
        now,
      ),
    ).toEqual({ ...now, x: 1 });
    expect((keepUnread({ a: new Uint8Array([9]) }, { a: new Uint8Array([9]) }, { a: image }) as { a: unknown }).a).toBe(
      image,
    );
  });
});
