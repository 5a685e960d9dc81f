import type { PreGenerateContext } from '../contracts/agent-hook.js';
import { latestAssistantIndex } from '../messages/turns.js';
import type { HookAttempt } from './hook-attempt.js';
import { hookMemory } from './hook-memory.js';
import { LEAN_MIN_GAIN_RATIO } from './hook-options.js';
import { PRUNE_STRATEGY_NAME, type PruneOptions, pruneToolResults } from './prune-tool-results.js';
import type { CompactionOutcome } from './run-compaction.js';
import type { CompactionStrategy } from './types.js';

type Sizes = Pick<HookAttempt, 'contextWindow' | 'thresholdTokens' | 'protectedTokens'>;

/**
 * Lean mode's step, before the threshold is looked at: each tool result the model has
 * answered since the last step is pruned to a digest marker when it pays for its marker
 * (LEAN_MIN_GAIN_RATIO times the marker's tokens). Only the end of the transcript changes,
 * so the prompt cache keeps the rest. Only the newest turn, and `protectedTokens` when you
 * set it, stay whole. Reported only when it changed something.
 */
export async function leanStep(
  ctx: PreGenerateContext,
  size: Sizes,
  options: { lean: PruneOptions; protectedOption: number | undefined },
  run: (
    attempt: Omit<HookAttempt, 'request' | 'run' | 'emit' | 'recall' | 'onCompaction'>,
  ) => Promise<CompactionOutcome>,
): Promise<void> {
  const memory = hookMemory(ctx.run);
  const from = Math.max(0, memory.readFrom);
  const shownNames = memory.shownNames;
  memory.readFrom = latestAssistantIndex(ctx.request.messages);
  const readPrune: CompactionStrategy = {
    name: PRUNE_STRATEGY_NAME,
    compact: (input) =>
      pruneToolResults(input, {
        ...options.lean,
        marker: 'digest',
        minGainRatio: LEAN_MIN_GAIN_RATIO,
        from,
        shownNames,
      }),
  };
  await run({
    ...size,
    protectedTokens: options.protectedOption ?? 0,
    strategy: readPrune,
    fallback: readPrune,
    tokensBefore: ctx.run.budget.measure(ctx.request),
    quiet: true,
  });
}
