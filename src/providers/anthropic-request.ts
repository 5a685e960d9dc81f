import type { ModelRequest } from '../contracts/model-request.js';
import type { AnthropicRequest, AnthropicRequestBody, AnthropicTool } from './anthropic-api-types.js';
import { type AnthropicPromptCache, withCacheBreakpoints } from './anthropic-cache-control.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { outputFormatOf } from './anthropic-output-format.js';
import { thinkingFields } from './anthropic-thinking.js';
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

/**
 * The request body of one Messages API call. `max_tokens`: the request's, else the default
 * (plus the thinking budget when the request asks for extended thinking); reasoning as the
 * model takes it (see thinkingFields: adaptive thinking and `output_config.effort`, or
 * budget_tokens); an outputSchema as
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
  const { effort, ...thinking } = thinkingFields(
    request.reasoning,
    modelId,
    request.maxOutputTokens,
    settings.defaultMaxTokens,
  );
  const format =
    request.outputSchema === undefined
      ? {}
      : outputFormatOf(request.outputSchema, modelId, { ...(tools.length === 0 ? {} : { tools }), ...thinking });
  const outputConfig = { ...format.output_config, ...(effort === undefined ? {} : { effort }) };
  const body: AnthropicRequestBody = {
    model: modelId,
    ...thinking,
    messages,
    ...(system === undefined || system === '' ? {} : { system }),
    ...(tools.length === 0 ? {} : { tools }),
    ...format,
    ...(Object.keys(outputConfig).length === 0 ? {} : { output_config: outputConfig }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(settings.contextManagement === undefined ? {} : { context_management: settings.contextManagement }),
  };
  return {
    body: settings.promptCache === false ? body : withCacheBreakpoints(body, settings.promptCache),
    sources,
  };
}
