import type { AgentResult } from '../contracts/agent-result.js';
import { LoushoError } from '../errors/lousho-error.js';

/**
 * The partial result a failed run carried (a limit reached, an abort, a provider error
 * that could not be recovered), or undefined.
 */
export function partialResult(error: unknown): AgentResult | undefined {
  if (!LoushoError.isInstance(error)) return undefined;
  return error.partialResult as AgentResult | undefined;
}
