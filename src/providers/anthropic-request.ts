import type { ModelRequest } from '../contracts/model-request.js';
import { configError } from '../errors/lousho-error.js';
import type { AnthropicRequest, AnthropicRequestBody, AnthropicTool } from './anthropic-api-types.js';
import { type AnthropicPromptCache, withCacheBreakpoints } from './anthropic-cache-control.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { outputFormatOf } from './anthropic-output-format.js';
import { checkReasoningOptions } from './reasoning-options.js';

/** What the provider's options add to every request body. */
export interface AnthropicRequestSettings {
  /** max_tokens when the request gives no maxOutputTokens. */
  defaultMaxTokens: number;
  /** Prompt-cache breakpoints: on unless false. */
  promptCache: AnthropicPromptCache;
  /** Passed through as the body's context_management (server-side compaction). */
  contextManagement?: Record<string, unknown> | undefined;
}

function thinkingOf(request: ModelRequest, maxTokens: number | undefined, defaultMaxTokens: number) {
  const budget = request.reasoning?.budgetTokens;
  if (budget === undefined) return { max_tokens: maxTokens ?? defaultMaxTokens };
  if (maxTokens !== undefined && maxTokens <= budget) {
    throw configError(
      `maxOutputTokens (${maxTokens}) must be above reasoning.budgetTokens (${budget}): Anthropic counts the thinking inside max_tokens. Raise maxOutputTokens or lower the budget.`,
      { option: 'reasoning.budgetTokens' },
    );
  }
  // Without a limit of the caller's, the thinking budget comes on top of the default answer length.
  return {
    max_tokens: maxTokens ?? defaultMaxTokens + budget,
    thinking: { type: 'enabled' as const, budget_tokens: budget },
  };
}

/**
 * The request body of one Messages API call. `max_tokens`: the request's, else the default
 * (plus the thinking budget when the request asks for extended thinking); an outputSchema as
 * structured outputs (`output_config.format`), or a forced final-answer tool for models before
 * them (see outputFormatOf); prompt-cache breakpoints unless the provider's promptCache is false.
 */
export function toAnthropicRequest(
  request: ModelRequest,
  modelId: string,
  settings: AnthropicRequestSettings,
): AnthropicRequest {
  checkReasoningOptions(request.reasoning, 'Anthropic request');
  const { system, messages, sources } = toAnthropicMessages(request.messages);
  const tools = (request.tools ?? []).map(
    (t): AnthropicTool => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      input_schema: { type: 'object', ...t.parameters },
    }),
  );
  const thinking = thinkingOf(request, request.maxOutputTokens, settings.defaultMaxTokens);
  const body: AnthropicRequestBody = {
    model: modelId,
    ...thinking,
    messages,
    ...(system === undefined || system === '' ? {} : { system }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(request.outputSchema === undefined
      ? {}
      : outputFormatOf(request.outputSchema, modelId, { ...(tools.length === 0 ? {} : { tools }), ...thinking })),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(settings.contextManagement === undefined ? {} : { context_management: settings.contextManagement }),
  };
  return {
    body: settings.promptCache === false ? body : withCacheBreakpoints(body, settings.promptCache),
    sources,
  };
}
