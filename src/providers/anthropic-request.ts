import type { JSONSchema } from '../contracts/json-schema.js';
import type { ModelRequest } from '../contracts/model-request.js';
import type { AnthropicRequest, AnthropicTool } from './anthropic-api-types.js';
import { toAnthropicMessages } from './anthropic-messages.js';

/** The text that asks for JSON output, appended to the system prompt when a request has an outputSchema. */
export function outputSchemaInstruction(schema: JSONSchema): string {
  return (
    'Answer with a single JSON value that matches the JSON Schema below, and nothing else: ' +
    `no prose, no Markdown code fences.\n${JSON.stringify(schema)}`
  );
}

/** The request body of one Messages API call. `max_tokens`: the request's, else `defaultMaxTokens`. */
export function toAnthropicRequest(request: ModelRequest, modelId: string, defaultMaxTokens: number): AnthropicRequest {
  const { system, messages, sources } = toAnthropicMessages(request.messages);
  const instruction = request.outputSchema === undefined ? undefined : outputSchemaInstruction(request.outputSchema);
  const fullSystem = [system, instruction].filter((s): s is string => s !== undefined).join('\n\n');
  const tools = (request.tools ?? []).map(
    (t): AnthropicTool => ({
      name: t.name,
      ...(t.description === undefined ? {} : { description: t.description }),
      input_schema: { type: 'object', ...t.parameters },
    }),
  );
  return {
    body: {
      model: modelId,
      max_tokens: request.maxOutputTokens ?? defaultMaxTokens,
      messages,
      ...(fullSystem === '' ? {} : { system: fullSystem }),
      ...(tools.length === 0 ? {} : { tools }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    },
    sources,
  };
}
