import { describe, expect, it } from 'vitest';
import { modelToolNames } from './mcp-names.js';

/* The rule that makes every server's tool names legal and unique (names made up for each case). */

describe('modelToolNames()', () => {
  it('keeps a legal name as it is, prefix included', () => {
    expect([...modelToolNames(['read_file', 'list-dir'], 'fs_').values()]).toEqual(['fs_read_file', 'fs_list-dir']);
  });

  it("replaces characters no provider takes with '_' when the result is free", () => {
    expect(modelToolNames(['files.read', 'a b']).get('files.read')).toBe('files_read');
    expect(modelToolNames(['a b']).get('a b')).toBe('a_b');
  });

  it('gives a name whose cleaned form is taken a suffix from its own hash, the legal name keeping its own', () => {
    const names = modelToolNames(['files.read', 'files_read']);
    expect(names.get('files_read')).toBe('files_read');
    expect(names.get('files.read')).toMatch(/^files_read_[0-9a-f]{6}$/);
  });

  it('names two names that clean to one form apart, both with a suffix', () => {
    const names = modelToolNames(['a.b', 'a/b']);
    expect(names.get('a.b')).toMatch(/^a_b_[0-9a-f]{6}$/);
    expect(names.get('a/b')).toMatch(/^a_b_[0-9a-f]{6}$/);
    expect(names.get('a.b')).not.toBe(names.get('a/b'));
  });

  it('cuts a name over 64 characters to 57 and a suffix, and names an empty one', () => {
    const long = 'x'.repeat(200);
    expect(modelToolNames([long]).get(long)).toMatch(/^x{57}_[0-9a-f]{6}$/);
    expect(modelToolNames(['']).get('')).toBe('_');
  });

  it('depends on the names only, not on their order, so a listing in another order maps the same', () => {
    const list = ['files.read', 'files_read', 'a.b', 'a/b', 'x'.repeat(70), 'ok'];
    const forward = modelToolNames(list, 'p_');
    const backward = modelToolNames([...list].reverse(), 'p_');
    for (const name of list) expect(backward.get(name)).toBe(forward.get(name));
    expect(new Set(forward.values()).size).toBe(list.length);
  });
});
