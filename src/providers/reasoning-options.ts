import type { ReasoningOptions } from '../contracts/model-request.js';
import { checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';

const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
/** The smallest extended thinking budget Anthropic takes. */
export const MIN_THINKING_BUDGET = 1024;

/** Checks reasoning options (of createAgent() or of one request); throws LOUSHO_CONFIG_INVALID naming the bad field. */
export function checkReasoningOptions(value: unknown, where: string): ReasoningOptions | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw configError(`${where}: reasoning must be an object such as { effort: 'medium' } or { budgetTokens: 4096 }.`, {
      option: 'reasoning',
    });
  checkOptions<ReasoningOptions>(value, `${where} reasoning`, ['effort', 'budgetTokens']);
  const { effort, budgetTokens } = value as ReasoningOptions;
  if (effort !== undefined && !EFFORTS.includes(effort))
    throw configError(`${where}: reasoning.effort must be one of ${EFFORTS.join(', ')}, got ${String(effort)}.`, {
      option: 'reasoning.effort',
    });
  if (
    budgetTokens !== undefined &&
    (typeof budgetTokens !== 'number' || !Number.isInteger(budgetTokens) || budgetTokens < MIN_THINKING_BUDGET)
  )
    throw configError(
      `${where}: reasoning.budgetTokens must be a whole number of at least ${MIN_THINKING_BUDGET} (Anthropic's smallest thinking budget), got ${String(budgetTokens)}.`,
      { option: 'reasoning.budgetTokens' },
    );
  return value as ReasoningOptions;
}
