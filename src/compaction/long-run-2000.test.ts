/**
 * 2,000 steps of about 550 tokens each in the real step loop (AgentExecutor, the
 * compaction hook, the preflight fit), at a 32K and a 128K window, for each configuration a
 * user picks: `compaction: true` (prune only), a summarizer (two-phase) and compactorStrategy().
 * No request may be sent over the window, and the hook must hold the run on its own.
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
import { DEFAULT_THRESHOLD_PERCENT, thresholdTokens } from './options.js';
import { pruneToolResultsStrategy } from './prune-tool-results.js';
import { MIN_GAIN_PERCENT } from './trigger.js';
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

const configurations: [string, () => CompactionHookOptions][] = [
  ['compaction: true (prune only)', () => ({ strategy: pruneToolResultsStrategy() })],
  ['a summarizer (two-phase)', () => ({ strategy: twoPhaseStrategy({ model: summarizer() }) })],
  ['compactorStrategy()', () => ({ strategy: compactorStrategy() })],
  ["mode: 'lean'", () => ({ mode: 'lean' })],
];

describe.each([32_768, 128_000])('a 2,000-step run at a %i-token window', (window) => {
  it.each(configurations)(
    '%s never sends a request over the window, and the hook holds it alone',
    async (name, make) => {
      const run = await runLongAgent({ steps: STEPS, contextWindow: window, compaction: make() });
      expect(run.result.steps).toBe(STEPS + 1);
      expect(run.received).toHaveLength(STEPS + 1);
      expect(Math.max(...run.received)).toBeLessThanOrEqual(window);
      // The run outgrew the window many times over: about 550 tokens a step, 2,000 steps
      // (in lean mode each result is pruned once answered, so the request grows more slowly).
      const growth = (run.received[50] as number) - (run.received[0] as number);
      expect(growth).toBeGreaterThan(name.includes('lean') ? 50 * 100 : 50 * 500);
      expect(run.fits).toEqual([]); // the executor's last resort never had to step in
      expect(run.compactions).toBeGreaterThan(5);
      validateMessages(run.result.messages);
      const dones = run.events.filter((e): e is CompactionDoneEvent => e.type === 'compaction.done');
      expect(dones.filter((d) => d.error !== undefined)).toEqual([]);
      if (name.startsWith('compaction: true') || name.includes('lean')) {
        // Pruning alone ran out: the next step folded the oldest turns, under the same events, with one warning.
        expect(dones.some((d) => d.appliedStrategy === FOLD_STEP_NAME)).toBe(true);
        expect(run.result.messages.filter(isFoldMarker)).toHaveLength(1);
        const folded = warn.mock.calls.filter(([m]) => String(m).includes('folded its oldest turns'));
        expect(folded).toHaveLength(1);
        expect(String(folded[0]?.[0])).toMatch(/summarizer/);
      } else {
        expect(dones.some((d) => d.appliedStrategy === FOLD_STEP_NAME)).toBe(false);
      }
      if (!name.includes('lean')) {
        // Each compaction frees at least the minimum gain, so the crossings never come closer
        // than the steps it takes to add that much again (before the rule, a summarizer's
        // crossings came 1 step apart at the end of the 128K run, each breaking the cache).
        const steps = dones.filter((d) => d.unchanged !== true).map((d) => d.step as number);
        const gaps = steps.slice(1).map((s, i) => s - (steps[i] as number));
        const growth = Math.max(...run.received.slice(1).map((t, i) => t - (run.received[i] as number)));
        const minGain = Math.floor(thresholdTokens(window, DEFAULT_THRESHOLD_PERCENT, 0) * MIN_GAIN_PERCENT);
        expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(minGain / growth));
      }
      if (name.includes('two-phase')) {
        expect(dones.some((d) => d.summary === true)).toBe(true);
        expect(run.result.messages.some((m) => contentText(m.content).startsWith('[Conversation summary]'))).toBe(true);
      }
    },
  );
});
