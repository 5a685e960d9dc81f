/**
 * 2,000 steps of about 550 tokens each in the real step loop (AgentExecutor, the
 * compaction hook, the preflight fit), at a 32K and a 128K window, for each configuration a
 * user picks: the defaults (`compaction: true`, a summarizer, compactorStrategy()) and the
 * opt-in layers (fold with the minimum gain, a low-water mark with the minimum gain, lean).
 * No request may be sent over the window. Where the defaults cannot hold the run under the
 * window, the overflow recovery steps in, announced, and never cuts the run to a few hundred
 * tokens; with the layers the hook holds it alone.
 */
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { CompactionDoneEvent } from '../contracts/agent-event.js';
import { contentText } from '../messages/content.js';
import { validateMessages } from '../messages/validate.js';
import { runLongAgent } from '../test-support/long-run.js';
import { mockModel } from '../testing/mock-model.js';
import type { CompactionHookOptions } from './compaction-hook.js';
import { compactorStrategy } from './compactor-strategy.js';
import { FOLD_STEP_NAME, isFoldMarker } from './fold-turns.js';
import { OVERFLOW_RECOVERY_NAME } from './overflow-recovery.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from './sizes.js';

const MIN_GAIN_PERCENT = 0.1;

import { twoPhaseStrategy } from './two-phase.js';

const STEPS = 2_000;

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());

const summarizer = () =>
  mockModel(() => 'The reviewer read the files so far, one a step; nothing needs fixing yet. Keep reading.', {
    modelId: 'summarizer',
  });

/** Each configuration, and whether it has the minimum gain (the hook then holds the run alone, in batches). */
const configurations: [string, () => CompactionHookOptions, { layered: boolean }][] = [
  ['compaction: true (prune only)', () => ({ strategy: pruneToolResultsStrategy() }), { layered: false }],
  ['a summarizer (two-phase)', () => ({ strategy: twoPhaseStrategy({ model: summarizer() }) }), { layered: false }],
  ['compactorStrategy()', () => ({ strategy: compactorStrategy() }), { layered: false }],
  ['prune with fold and minimumGain', () => ({ fold: true, minimumGain: 0.1 }), { layered: true }],
  [
    'two-phase with lowWaterMark and minimumGain',
    () => ({ strategy: twoPhaseStrategy({ model: summarizer() }), lowWaterMark: 0.5, minimumGain: 0.1 }),
    { layered: true },
  ],
  ["mode: 'lean'", () => ({ mode: 'lean' }), { layered: true }],
];

describe.each([32_768, 128_000])('a 2,000-step run at a %i-token window', (window) => {
  it.each(configurations)('%s never sends a request over the window', async (name, make, { layered }) => {
    const run = await runLongAgent({ steps: STEPS, contextWindow: window, compaction: make() });
    expect(run.result.steps).toBe(STEPS + 1);
    expect(run.received).toHaveLength(STEPS + 1);
    expect(Math.max(...run.received)).toBeLessThanOrEqual(window);
    // The run outgrew the window many times over: about 550 tokens a step, 2,000 steps
    // (in lean mode each result is pruned once answered, so the request grows more slowly).
    const growth = (run.received[50] as number) - (run.received[0] as number);
    expect(growth).toBeGreaterThan(name.includes('lean') ? 50 * 100 : 50 * 500);
    expect(run.compactions).toBeGreaterThan(5);
    validateMessages(run.result.messages);
    const dones = run.events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
    expect(dones.filter((d) => d.error !== undefined)).toEqual([]);
    // Every overflow recovery is announced as one, and leaves the run well above a few hundred tokens.
    const recoveries = dones.filter((d) => d.trigger === 'overflow');
    expect(recoveries.every((d) => d.strategy === OVERFLOW_RECOVERY_NAME)).toBe(true);
    expect(recoveries).toHaveLength(run.fits.length);
    for (const fit of run.fits) expect(fit.after).toBeGreaterThan(window * 0.4);
    if (layered) {
      expect(run.fits).toEqual([]); // the hook held the run on its own
      // Each compaction frees at least the minimum gain, so the crossings never come closer
      // than the steps it takes to add that much again.
      const steps = dones.filter((d) => d.unchanged !== true).map((d) => d.step as number);
      const gaps = steps.slice(1).map((s, i) => s - (steps[i] as number));
      const most = Math.max(...run.received.slice(1).map((t, i) => t - (run.received[i] as number)));
      const minGain = Math.floor(thresholdTokens(window, DEFAULT_THRESHOLD_PERCENT, 0) * MIN_GAIN_PERCENT);
      if (!name.includes('lean')) expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(minGain / most));
    }
    // Only the fold layer folds above the threshold; the overflow recovery folds too, announced as itself.
    const folded = dones.filter((d) => d.appliedStrategy === FOLD_STEP_NAME && d.trigger === undefined);
    if (name.includes('fold') || name.includes('lean')) {
      expect(folded.length).toBeGreaterThan(0);
      expect(run.result.messages.filter(isFoldMarker)).toHaveLength(1);
    } else expect(folded).toEqual([]);
    if (name.includes('two-phase')) {
      expect(dones.some((d) => d.summary === true)).toBe(true);
      expect(run.result.messages.some((m) => contentText(m.content).startsWith('[Conversation summary]'))).toBe(true);
    }
  });
});
