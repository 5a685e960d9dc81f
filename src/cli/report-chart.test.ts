import { describe, expect, it } from 'vitest';
import { MAX_MARKS, markLabel, reportChart } from './report-chart.js';
import { freedTokens, type ReportData, type ReportMark, type ReportStep } from './report-data.js';

function data(steps: ReportStep[], marks: ReportMark[]): ReportData {
  return {
    title: 't',
    source: 'read as test',
    sizes: 'test sizes',
    contextWindow: 24_000,
    windowFrom: 'test',
    thresholdTokens: 21_600,
    steps,
    marks,
    byRole: [],
    byTool: [],
    largest: [],
    totals: { messages: 0, tokens: 0 },
    notes: [],
  };
}

const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, tokens: 1_000 + ((i * 37) % 20_000) }));
const compaction = (step: number, freed: number): ReportMark => ({
  step,
  kind: 'compaction',
  what: 'two-phase, ran prune-tool-results',
  tokensBefore: 22_000 + freed,
  tokensAfter: 22_000,
  detail: '3 old tool results pruned',
});
const groups = (svg: string) =>
  [
    ...svg.matchAll(
      /<g class="mark ([a-z ]+)" data-step="(\d+)" data-freed="(\d+)"(?: data-count="(\d+)")?><title>([^<]*)<\/title>/g,
    ),
  ].map((m) => ({
    kind: m[1],
    step: Number(m[2]),
    freed: Number(m[3]),
    count: Number(m[4] ?? 1),
    title: m[5] as string,
  }));

describe("the run report's chart", () => {
  it('draws one point per shown step, and the window and the threshold', () => {
    const shown = steps(40);
    const { svg } = reportChart(data(shown, []), shown);
    const points = /<polyline class="series" points="([^"]*)"/.exec(svg)?.[1]?.split(' ') ?? [];
    expect(points).toHaveLength(40);
    expect(svg).toMatch(/<g class="window">.*window 24,000<\/text>/);
    expect(svg).toMatch(/<g class="threshold">.*threshold 21,600<\/text>/);
  });

  it('marks each compaction at its step, labelled with the sizes and what it freed', () => {
    const marks = [
      compaction(5, 8_754),
      { step: 9, kind: 'recovery', what: 'output-truncated', detail: 'asked for the rest' } as ReportMark,
    ];
    const { svg } = reportChart(data(steps(10), marks), steps(10));
    expect(groups(svg)).toEqual([
      {
        kind: 'compaction',
        step: 5,
        freed: 8_754,
        count: 1,
        title:
          'compaction before step 5 (two-phase, ran prune-tool-results): 30,754 -&gt; 22,000 tokens, freed 8,754; 3 old tool results pruned',
      },
      {
        kind: 'recovery',
        step: 9,
        freed: 0,
        count: 1,
        title: 'recovery before step 9 (output-truncated); asked for the rest',
      },
    ]);
    expect(markLabel(marks[0] as ReportMark)).toContain('freed 8,754');
  });

  it(`draws more than ${MAX_MARKS} marks as groups that together hold every one and all it freed`, () => {
    const marks = Array.from({ length: 1_000 }, (_, i) => compaction(i * 5 + 3, 1_000 + i));
    const all = steps(5_000);
    const drawn = groups(reportChart(data(all, marks), all).svg);
    expect(drawn.length).toBeLessThanOrEqual(MAX_MARKS);
    expect(drawn.reduce((sum, g) => sum + g.count, 0)).toBe(1_000);
    expect(drawn.reduce((sum, g) => sum + g.freed, 0)).toBe(marks.reduce((sum, m) => sum + freedTokens(m), 0));
    for (const g of drawn.filter((d) => d.count > 1)) {
      expect(g.kind).toBe('compaction group');
      expect(g.title).toMatch(new RegExp(`^${g.count} compactions, steps ${g.step}–\\d+: freed [\\d,]+ tokens in all`));
    }
  });
});
