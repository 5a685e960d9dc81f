import type { RunUsage } from '../contracts/run-usage.js';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';

/** Budgets of one run. Each counts every model call of the run, the summarizer's included. */
export interface AgentLimits {
  /**
   * Most steps in a run, as `result.steps` counts them: the agent's own model replies. A
   * summarizer's call is not a step (it counts toward maxTokens and maxCostUsd), nor is a
   * retry or continuation within a step. Default 100.
   */
  maxSteps?: number;
  /** Most tokens (input plus output) over every model call of the run, the summarizer's included. */
  maxTokens?: number;
  /** Most USD over every model call of the run whose price is known, the summarizer's included. */
  maxCostUsd?: number;
}

export const DEFAULT_MAX_STEPS = 100;

/** Checks limit values; throws LOUSHO_CONFIG_INVALID naming the bad one. */
export function checkLimits(limits: unknown): AgentLimits {
  if (limits === undefined) return {};
  if (typeof limits !== 'object' || limits === null)
    throw configError('limits must be an object such as { maxSteps: 50 }.');
  checkOptions<AgentLimits>(limits, 'limits', ['maxSteps', 'maxTokens', 'maxCostUsd']);
  const l = limits as Record<string, unknown>;
  for (const key of ['maxSteps', 'maxTokens', 'maxCostUsd'] as const) {
    const v = l[key];
    if (v === undefined) continue;
    const ok = typeof v === 'number' && v > 0 && (key === 'maxCostUsd' ? Number.isFinite(v) : Number.isInteger(v));
    if (!ok)
      throw configError(
        `limits.${key} must be a positive ${key === 'maxCostUsd' ? 'number' : 'whole number'}, got ${String(v)}.`,
      );
  }
  return l as AgentLimits;
}

/** The first limit a run has reached after `steps` steps with this usage, or undefined. */
export function reachedLimit(
  limits: AgentLimits,
  usage: RunUsage,
  steps: number,
): { limit: keyof AgentLimits; value: number; max: number } | undefined {
  const maxSteps = limits.maxSteps ?? DEFAULT_MAX_STEPS;
  if (steps >= maxSteps) return { limit: 'maxSteps', value: steps, max: maxSteps };
  if (limits.maxTokens !== undefined && usage.totalTokens >= limits.maxTokens) {
    return { limit: 'maxTokens', value: usage.totalTokens, max: limits.maxTokens };
  }
  if (limits.maxCostUsd !== undefined && (usage.costUsd ?? 0) >= limits.maxCostUsd) {
    return { limit: 'maxCostUsd', value: usage.costUsd ?? 0, max: limits.maxCostUsd };
  }
  return undefined;
}
