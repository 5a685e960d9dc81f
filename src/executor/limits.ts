import type { RunUsage } from '../contracts/run-usage.js';
import { configError } from '../errors/lousho-error.js';

/** Budgets of one run. Each counts every model call of the run, the summarizer's included. */
export interface AgentLimits {
  /** Most model calls in a run (each agent step is one; a summary is one more). Default 100. */
  maxSteps?: number;
  /** Most tokens (input plus output) over the run's model calls. */
  maxTokens?: number;
  /** Most USD over the run's model calls whose price is known. */
  maxCostUsd?: number;
}

export const DEFAULT_MAX_STEPS = 100;

/** Checks limit values; throws LOUSHO_CONFIG_INVALID naming the bad one. */
export function checkLimits(limits: unknown): AgentLimits {
  if (limits === undefined) return {};
  if (typeof limits !== 'object' || limits === null)
    throw configError('limits must be an object such as { maxSteps: 50 }.');
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

/** The first limit the usage has reached, or undefined. `calls` counts model calls so far. */
export function reachedLimit(
  limits: AgentLimits,
  usage: RunUsage,
): { limit: keyof AgentLimits; value: number; max: number } | undefined {
  const maxSteps = limits.maxSteps ?? DEFAULT_MAX_STEPS;
  if (usage.modelCalls.length >= maxSteps) return { limit: 'maxSteps', value: usage.modelCalls.length, max: maxSteps };
  if (limits.maxTokens !== undefined && usage.totalTokens >= limits.maxTokens) {
    return { limit: 'maxTokens', value: usage.totalTokens, max: limits.maxTokens };
  }
  if (limits.maxCostUsd !== undefined && (usage.costUsd ?? 0) >= limits.maxCostUsd) {
    return { limit: 'maxCostUsd', value: usage.costUsd ?? 0, max: limits.maxCostUsd };
  }
  return undefined;
}
