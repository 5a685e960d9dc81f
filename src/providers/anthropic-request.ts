import type { ModelRequest } from '../contracts/model-request.js';
import type { AnthropicRequest, AnthropicRequestBody, AnthropicTool } from './anthropic-api-types.js';
import { type AnthropicPromptCache, breakpointMessages, withCacheBreakpoints } from './anthropic-cache-control.js';
import { toAnthropicMessages } from './anthropic-messages.js';
import { outputFormatOf } from './anthropic-output-format.js';
import { thinkingFields } from './anthropic-thinking.js';
import type { PromptCacheMemory } from './prompt-cache-memory.js';
import { checkReasoningOptions } from './reasoning-options.js';

/** What the provider's options add to every request body. */
export interface AnthropicRequestSettings {
  /** max_tokens when the request gives no maxOutputTokens. */
  defaultMaxTokens: number;
  /** Prompt-cache breakpoints: on unless false. */
  promptCache: AnthropicPromptCache;
  /** Passed through as the body's context_management (server-side compaction). */
  contextManagement?: Record<string, unknown> | undefined;
  /**
   * What this conversation's earlier requests cached (one per transcript): read to place the
   * breakpoint that reuses it, and told what this request caches. Without it the breakpoints
   * follow each request's messages alone.
   */
  cacheMemory?: PromptCacheMemory | undefined;
  /** The time the request is sent, for the cache's TTL (default: now). */
  now?: number;
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
  if (settings.promptCache === false) return { body, sources };
  const memory = settings.cacheMemory;
  const now = settings.now ?? Date.now();
  const places = memory?.places(request.messages, now);
  const marked = withCacheBreakpoints(
    body,
    settings.promptCache,
    places === undefined ? undefined : { places, sources },
  );
  const leading = request.messages.findIndex((m) => m.role !== 'system');
  memory?.record(
    request.messages,
    breakpointMessages(marked, sources, (leading < 0 ? request.messages.length : leading) - 1),
    now,
  );
  return { body: marked, sources };
}
