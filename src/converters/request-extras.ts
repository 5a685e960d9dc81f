import type { ToolDefinition } from '../contracts/tool-definition.js';
import { isRecord } from './invalid-input.js';
import { type LogReading, logExtras, numberOf, reportedUsage, sumOf } from './log-reading.js';

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
 * The usage a provider reported, in any wire format: Anthropic's (input, cache reads and
 * cache writes apart, added here), Chat Completions' prompt_tokens, the Responses API's
 * input_tokens. Undefined when the object holds no usage.
 */
export function wireUsage(usage: unknown): LogReading['reported'] {
  if (!isRecord(usage)) return undefined;
  const input = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const prompt = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const output = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const completion = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const anthropicRead = numberOf(usage.cache_read_input_tokens);
  const anthropicWrite = numberOf(usage.cache_creation_input_tokens);
  const anthropic = anthropicRead !== undefined || anthropicWrite !== undefined;
  return reportedUsage({
    inputTokens: anthropic
      ? sumOf(numberOf(usage.input_tokens), anthropicRead, anthropicWrite)
      : (numberOf(usage.prompt_tokens) ?? numberOf(usage.input_tokens)),
    outputTokens: numberOf(usage.completion_tokens) ?? numberOf(usage.output_tokens),
    cacheReadTokens: anthropicRead ?? numberOf(input.cached_tokens) ?? numberOf(prompt.cached_tokens),
    cacheWriteTokens: anthropicWrite,
    reasoningTokens: numberOf(output.reasoning_tokens) ?? numberOf(completion.reasoning_tokens),
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
