import { describe, expect, it } from 'vitest';
import type { Message, ToolMessage } from '../messages/types.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import { toolTurn } from '../test-support/transcripts.js';
import { digestOf } from './digest.js';
import { isPrunedMarker, prunedMarker } from './marker.js';
import { stubMarkers } from './marker-writers.js';
import { DEFAULT_DIGEST_CHARS, pruneToolResults, pruneToolResultsStrategy, pruneWith } from './prune-tool-results.js';
import type { CompactionInput } from './types.js';

const GREP_OUTPUT = [
  'django/db/models/query.py:512:    def bulk_create(self, objs, batch_size=None, ignore_conflicts=False):',
  'django/db/models/query.py:530:        self._check_bulk_create_options(ignore_conflicts)',
  'tests/bulk_create/tests.py:88:    def test_batch_same_vals(self):',
  'Traceback (most recent call last):',
  'ValueError: Batch size must be a positive integer.',
  ...Array.from({ length: 200 }, (_, i) => `    filler line ${i} with some plain words and more plain words`),
].join('\n');

describe('digestOf', () => {
  it('keeps the first error line, the paths, the defined names and the compound identifiers, most useful first', () => {
    const digest = digestOf(GREP_OUTPUT, 400);
    const items = digest.split(', ');
    expect(items[0]).toMatch(/^Traceback|ValueError/);
    expect(items).toEqual(
      expect.arrayContaining([
        'django/db/models/query.py',
        'tests/bulk_create/tests.py',
        'bulk_create',
        'test_batch_same_vals',
        '_check_bulk_create_options',
      ]),
    );
    expect(digest).not.toMatch(/\bfiller\b|\bplain\b/);
  });

  it('stays within its character budget, and leaves out names the call already shows', () => {
    for (const budget of [40, 100, 160]) expect(digestOf(GREP_OUTPUT, budget).length).toBeLessThanOrEqual(budget);
    expect(digestOf(GREP_OUTPUT, 0)).toBe('');
    const known = new Set(['django/db/models/query.py']);
    expect(digestOf(GREP_OUTPUT, 400, known).split(', ')).not.toContain('django/db/models/query.py');
  });

  it('reads a bounded part of a huge result', () => {
    const huge = `src/start.ts\n${'x'.repeat(2_000_000)}\nsrc/end.ts`;
    expect(digestOf(huge, 200).split(', ')).toEqual(['src/start.ts', 'src/end.ts']);
  });
});

describe("pruneToolResultsStrategy({ marker: 'digest' })", () => {
  const input = (messages: Message[]): CompactionInput => ({
    messages,
    estimateTokens: (list) => estimateTokens(list, 'gpt-4o'),
    contextWindow: 100_000,
    protectedTokens: 0,
    thresholdTokens: 1,
  });
  const transcript = (): Message[] => [
    { role: 'user', content: 'Fix bulk_create.' },
    ...toolTurn('c1', 'bash', { command: 'grep -rn bulk_create django tests' }, GREP_OUTPUT),
    ...toolTurn('c2', 'bash', { command: 'ls' }, 'README.md'),
  ];

  it('writes a marker that names the tool and lists what the result showed, and is still recognized as a marker', () => {
    const out = pruneToolResults(input(transcript()), { marker: 'digest' });
    const marker = (out.messages[2] as ToolMessage).content as string;
    expect(marker).toMatch(/^\[pruned: bash result, \d+ chars; already read; it showed: /);
    expect(marker).toContain('tests/bulk_create/tests.py');
    expect(isPrunedMarker(marker)).toBe(true);
    const list = marker.slice(marker.indexOf('it showed: ') + 'it showed: '.length, -1);
    expect(list.length).toBeLessThanOrEqual(DEFAULT_DIGEST_CHARS);
    // A marker is never pruned again.
    expect(pruneToolResults(input(out.messages), { marker: 'digest' }).messages).toBe(out.messages);
  });

  it("keeps the seed's marker text by default", () => {
    const out = pruneToolResults(input(transcript()));
    expect((out.messages[2] as ToolMessage).content).toBe(
      prunedMarker('bash', { command: 'grep -rn bulk_create django tests' }, GREP_OUTPUT.length),
    );
  });

  it('takes digestChars as the budget, and refuses a bad option with LOUSHO_CONFIG_INVALID', () => {
    const short = pruneToolResults(input(transcript()), { marker: 'digest', digestChars: 40 });
    const marker = (short.messages[2] as ToolMessage).content as string;
    expect(marker.slice(marker.indexOf('it showed: ') + 11, -1).length).toBeLessThanOrEqual(40);
    expect(() => pruneToolResultsStrategy({ marker: 'summary' as never })).toThrow(
      expect.objectContaining({ code: 'LOUSHO_CONFIG_INVALID' }),
    );
    expect(() => pruneToolResultsStrategy({ digestChars: -1 })).toThrow(/digestChars/);
  });

  it('prunes, in a range a layer gives, only results worth minGainRatio times their marker', () => {
    const messages: Message[] = [
      { role: 'user', content: 'task' },
      ...toolTurn('small', 'bash', { command: 'cat a' }, 'short output '.repeat(12)),
      ...toolTurn('large', 'bash', { command: 'cat b' }, GREP_OUTPUT),
      ...toolTurn('latest', 'bash', { command: 'ls' }, 'x'),
    ];
    expect(pruneToolResults(input(messages)).prunedToolCallIds).toEqual(['small', 'large']);
    expect(pruneWith(input(messages), stubMarkers, { minGainRatio: 3 }).prunedToolCallIds).toEqual(['large']);
    // From the third message on: the first result is not looked at.
    expect(pruneWith(input(messages), stubMarkers, { from: 3 }).prunedToolCallIds).toEqual(['large']);
  });
});
