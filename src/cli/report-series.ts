import type { ReportStep } from './report-data.js';

/** The most steps the chart draws; a longer run is thinned to this many. */
export const MAX_SHOWN_STEPS = 1600;

/**
 * The steps the chart draws: all of them up to `max`; else the first, the last, and of each
 * equal stretch of steps between them the smallest and the largest request (in step order), so
 * every peak before a compaction and every drop after one stays visible at any length.
 */
export function shownSteps(steps: readonly ReportStep[], max = MAX_SHOWN_STEPS): ReportStep[] {
  if (steps.length <= max) return steps.slice();
  const inner = steps.length - 2;
  const buckets = Math.floor((max - 2) / 2);
  const shown: ReportStep[] = [steps[0] as ReportStep];
  for (let b = 0; b < buckets; b++) {
    const start = 1 + Math.floor((b * inner) / buckets);
    const end = 1 + Math.floor(((b + 1) * inner) / buckets);
    let low = start;
    let high = start;
    for (let i = start + 1; i < end; i++) {
      if ((steps[i] as ReportStep).tokens < (steps[low] as ReportStep).tokens) low = i;
      if ((steps[i] as ReportStep).tokens > (steps[high] as ReportStep).tokens) high = i;
    }
    if (end <= start) continue;
    for (const i of low === high ? [low] : [Math.min(low, high), Math.max(low, high)])
      shown.push(steps[i] as ReportStep);
  }
  shown.push(steps[steps.length - 1] as ReportStep);
  return shown;
}
