import type { ToolDefinition } from '../contracts/tool-definition.js';
import { isRecord } from '../converters/invalid-input.js';
import { type LogReading, logExtras, reportedUsage } from '../converters/log-reading.js';
import type { AnthropicUsage } from '../providers/anthropic-api-types.js';
import { anthropicUsage } from '../providers/anthropic-usage.js';
import type { ResponsesUsage } from '../providers/openai-responses-api-types.js';
import { responsesUsage } from '../providers/openai-responses-reply.js';
import { type OpenAIChatUsage, openAIUsage } from '../providers/openai-usage.js';

/**
 * A tool definition of a request body in any of the wire formats: Anthropic's
 * `{ name, description, input_schema }`, Chat Completions' `{ type: 'function', function }`,
 * the Responses API's `{ type: 'function', name, parameters }`. Undefined for a server tool.
 */
function toolOf(tool: unknown): ToolDefinition | undefined {
  if (!isRecord(tool)) return undefined;
  const fields = isRecord(tool.function) ? tool.function : tool;
  if (typeof fields.name !== 'string') return undefined;
  const parameters = fields.input_schema ?? fields.parameters ?? {};
  return {
    name: fields.name,
    ...(typeof fields.description === 'string' ? { description: fields.description } : {}),
    parameters: isRecord(parameters) ? parameters : {},
  };
}

/**
 * The usage a provider reported, in any wire format, read by the provider's own reader:
 * Chat Completions' (`prompt_tokens`), Anthropic's (cache reads and writes reported apart),
 * else the Responses API's (`input_tokens` with its details). Undefined when the object
 * holds no usage.
 */
function wireUsage(usage: unknown): LogReading['reported'] {
  if (!isRecord(usage)) return undefined;
  const read =
    'prompt_tokens' in usage
      ? openAIUsage(usage as OpenAIChatUsage)
      : 'cache_read_input_tokens' in usage || 'cache_creation_input_tokens' in usage
        ? anthropicUsage(usage as AnthropicUsage)
        : responsesUsage(usage as ResponsesUsage);
  return reportedUsage({
    inputTokens: read.inputTokens,
    outputTokens: read.outputTokens,
    cacheReadTokens: read.cachedInputTokens,
    cacheWriteTokens: read.cacheWriteInputTokens,
    reasoningTokens: read.reasoningTokens,
  });
}

/**
 * What a request body says besides its messages: the `model` it names, its function
 * `tools`, and the usage the provider reported for it when the file records one (a
 * `usage` field, or a `response` object beside the request holding one).
 */
export function requestExtras(body: Record<string, unknown>): Omit<LogReading, 'messages'> {
  const tools = Array.isArray(body.tools)
    ? body.tools.map(toolOf).filter((t): t is ToolDefinition => t !== undefined)
    : [];
  const response = isRecord(body.response) ? body.response : undefined;
  return logExtras({
    model: typeof body.model === 'string' && body.model !== '' ? body.model : undefined,
    tools: tools.length === 0 ? undefined : tools,
    reported: wireUsage(body.usage) ?? wireUsage(response?.usage),
  });
}
