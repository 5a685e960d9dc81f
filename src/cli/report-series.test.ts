import { describe, expect, it } from 'vitest';
import type { ReportStep } from './report-data.js';
import { MAX_SHOWN_STEPS, shownSteps } from './report-series.js';

/** A sawtooth: the size grows by `rise` a step and drops to `floor` every `period` steps. */
function sawtooth(count: number, period: number, rise = 100, floor = 1_000): ReportStep[] {
  return Array.from({ length: count }, (_, i) => ({ step: i + 1, tokens: floor + (i % period) * rise }));
}

describe('the steps the chart draws', () => {
  it('draws every step of a run that fits', () => {
    const steps = sawtooth(MAX_SHOWN_STEPS, 7);
    expect(shownSteps(steps)).toEqual(steps);
  });

  it('thins a 5,000-step run to at most the limit, in step order, from the first step to the last', () => {
    const steps = sawtooth(5_000, 37);
    const shown = shownSteps(steps);
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN_STEPS);
    expect(shown.length).toBeGreaterThan(MAX_SHOWN_STEPS - 10);
    expect(shown[0]).toBe(steps[0]);
    expect(shown.at(-1)).toBe(steps.at(-1));
    for (let i = 1; i < shown.length; i++)
      expect((shown[i] as ReportStep).step).toBeGreaterThan((shown[i - 1] as ReportStep).step);
  });

  it('keeps every peak before a drop and every low after one, however long the run', () => {
    // Peaks every 37 steps: each stretch of about 6 steps holds at most one, and its largest is kept.
    const steps = sawtooth(5_000, 37);
    const kept = new Set(shownSteps(steps).map((s) => s.step));
    const peaks = steps.filter((s, i) => (steps[i + 1]?.tokens ?? 0) < s.tokens && i + 1 < steps.length);
    const lows = steps.filter((s, i) => i > 0 && (steps[i - 1] as ReportStep).tokens > s.tokens);
    expect(peaks.length).toBeGreaterThan(100);
    for (const s of [...peaks, ...lows]) expect(kept.has(s.step), `step ${s.step}`).toBe(true);
  });
});
