import type { ModelRequest } from '../contracts/model-request.js';
import type { ProviderCompactionResponse } from '../contracts/provider-compaction.js';
import { LoushoError } from '../errors/lousho-error.js';
import type { AnthropicReply, AnthropicRequest, AnthropicRequestBody, AnthropicUsage } from './anthropic-api-types.js';
import { PROVIDER } from './anthropic-messages.js';
import { anthropicNativePart } from './anthropic-reply.js';
import { type AnthropicRequestSettings, toAnthropicRequest } from './anthropic-request.js';
import { ANTHROPIC_USAGE_FIELDS, anthropicUsage } from './anthropic-usage.js';

/** The beta of on-demand compaction: needed on the compaction request and on every request that carries its block. */
export const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/**
 * The headers a request needs beyond the client's: the on-demand compaction beta, added to
 * the `anthropic-beta` header the provider was given (if any), when the request asks for a
 * compaction or carries a signed compaction block, and the `others` it needs (the
 * interleaved-thinking beta, see thinkingBetas).
 */
export function compactionBetaHeaders(
  body: AnthropicRequestBody,
  headers: Record<string, string> | undefined,
  others: readonly string[] = [],
): Record<string, string> | undefined {
  const signed = body.messages.some(
    (m) => m.role === 'assistant' && m.content.some((b) => b.type === 'compaction' && b.signature !== undefined),
  );
  const needed = body.compaction !== undefined || signed ? [...others, ON_DEMAND_COMPACTION_BETA] : others;
  if (needed.length === 0) return undefined;
  const given = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === 'anthropic-beta')?.[1];
  const betas = (given ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  for (const beta of needed) if (!betas.includes(beta)) betas.push(beta);
  return { 'anthropic-beta': betas.join(',') };
}

/**
 * The body of an on-demand compaction: the request as a Messages API call (its system prompt
 * and tools, which the summarizer reads) with `compaction: { type: 'summarize' }`, and
 * without `context_management`, which the API does not take beside it.
 */
export function toAnthropicCompactRequest(
  request: ModelRequest,
  modelId: string,
  settings: AnthropicRequestSettings,
): AnthropicRequest {
  const wire = toAnthropicRequest(request, modelId, { ...settings, contextManagement: undefined });
  return { ...wire, body: { ...wire.body, compaction: { type: 'summarize' } } };
}

/** The usage of a compaction: its iterations summed (the top-level counts are zero, as no answer was written). */
function iterationsUsage(usage: AnthropicUsage | null | undefined) {
  const iterations = usage?.iterations ?? [];
  if (iterations.length === 0) return anthropicUsage(usage);
  const sum: AnthropicUsage = {};
  for (const iteration of iterations) {
    for (const key of ANTHROPIC_USAGE_FIELDS) {
      const value = iteration[key];
      if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
    }
  }
  return anthropicUsage(sum);
}

/**
 * The reply to an on-demand compaction as the window that replaces the messages sent: one
 * assistant message holding the compaction block (summary and signature). A reply without
 * one (stop_reason max_tokens, tool_use, refusal...) is LOUSHO_PROVIDER_FAILED naming the
 * stop reason, so the caller keeps its transcript and can compact later.
 */
export function fromAnthropicCompaction(reply: AnthropicReply, where: string): ProviderCompactionResponse {
  const block = reply.content?.find((b) => b.type === 'compaction');
  const part = block === undefined ? undefined : anthropicNativePart(block);
  if (reply.stop_reason !== 'compaction' || part === undefined || part.type !== 'compaction') {
    const reason = reply.stop_reason ?? 'none';
    const fix =
      reason === 'max_tokens'
        ? ' Give the compaction more room (maxSummaryTokens of providerCompactionStrategy()).'
        : ' The conversation was kept; it can be compacted later.';
    throw new LoushoError('LOUSHO_PROVIDER_FAILED', `${where} wrote no compaction (stop_reason ${reason}).${fix}`, {
      details: { provider: PROVIDER, stopReason: reason },
    });
  }
  return {
    messages: [{ role: 'assistant', content: [part] }],
    ...(part.text === undefined ? {} : { summary: part.text }),
    usage: iterationsUsage(reply.usage),
    ...(reply.model === undefined ? {} : { modelId: reply.model }),
  };
}
