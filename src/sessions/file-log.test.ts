import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLine } from './file-log-append.js';
import { countingLines, formatLine } from './file-log-lines.js';
import { FileSessionStore } from './file-store.js';

const folder = () => mkdtemp(join(tmpdir(), 'lousho-file-log-'));

describe('a FileSessionStore log: each line names the version it follows, and counts only there', () => {
  it('of appends at one version by writers that share no lock, exactly one counts, and every reader skips the others', async () => {
    const dir = await folder();
    const store = new FileSessionStore({ dir });
    const v1 = await store.append('s', 'first', 0);
    const log = join(dir, 's.jsonl');
    // As from processes that share nothing: straight to the file, all at once.
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => appendLine(log, `w${n}`, v1, false)));
    const won = outcomes.filter((o) => o.appended);
    expect(won).toHaveLength(1);
    const read = await store.read('s');
    expect(read.entries).toHaveLength(2);
    expect(read.entries[0]).toBe('first');
    expect(won[0]?.appended === true && won[0].version).toBe(read.version);
    // The losers' lines stay in the file and count nowhere: readAfter(), readLatest() and the next append agree.
    expect(await store.readAfter('s', v1, 'first')).toEqual({ entries: [read.entries[1]], version: read.version });
    const v3 = await store.append('s', 'third', read.version, { snapshot: true });
    expect(await store.readLatest('s')).toEqual({ entries: ['third'], version: v3, fromSnapshot: true });
    expect((await store.read('s')).entries).toEqual(['first', read.entries[1], 'third']);
  });

  it('reads a log of the older form (each entry a line as it is) and appends after it', async () => {
    const dir = await folder();
    await writeFile(join(dir, 's.jsonl'), '["a"]\n["b"]\n["torn', { mode: 0o600 });
    await writeFile(join(dir, 's.snap'), JSON.stringify({ offset: 6 }), { mode: 0o600 });
    const store = new FileSessionStore({ dir });
    expect(await store.read('s')).toEqual({ entries: ['["a"]', '["b"]'], version: 12 });
    expect(await store.readLatest('s')).toEqual({ entries: ['["b"]'], version: 12, fromSnapshot: true });
    const v = await store.append('s', '["c"]', 12);
    expect(await store.read('s')).toEqual({ entries: ['["a"]', '["b"]', '["c"]'], version: v });
    expect(await store.readAfter('s', 12, '["b"]')).toEqual({ entries: ['["c"]'], version: v });
  });

  it('does not count a line that names another version, a torn one, or one closed as torn', () => {
    const good = formatLine('ok', 0, '0000000a');
    const loser = formatLine('late', 0, '0000000b');
    const torn = formatLine('cut short', good.length, '0000000c').subarray(0, 12);
    const bytes = Buffer.concat([
      good,
      loser,
      torn,
      Buffer.from('\x18\n'),
      formatLine('next', good.length, '0000000d'),
    ]);
    const { lines, version } = countingLines(bytes, 0, 0);
    expect(lines.map((l) => l.entry.toString())).toEqual(['ok', 'next']);
    expect(version).toBe(bytes.length);
  });

  it('appends nothing at a version the log moved past, or that is not where a line ends', async () => {
    const dir = await folder();
    const store = new FileSessionStore({ dir });
    const v1 = await store.append('s', 'one', 0);
    await store.append('s', 'two', v1);
    const log = join(dir, 's.jsonl');
    const before = await readFile(log);
    expect(await appendLine(log, 'late', v1, false)).toMatchObject({ appended: false });
    expect(await appendLine(log, 'mid-line', v1 - 2, false)).toMatchObject({ appended: false });
    expect(await readFile(log)).toEqual(before);
    await appendFile(log, 'someone else\n');
    expect((await store.read('s')).entries).toEqual(['one', 'two', 'someone else']); // reported when the session opens
  });
});
