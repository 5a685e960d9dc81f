import type { JSONSchema } from '../contracts/json-schema.js';
import type { AnthropicRequestBody, AnthropicTool } from './anthropic-api-types.js';

/**
 * The tool a model without structured outputs is made to call with its final answer, as
 * `{ value: <the answer> }`; its call comes back as the reply's text.
 */
export const OUTPUT_TOOL_NAME = 'lousho_final_answer';

/** The keywords structured outputs take; any other is moved into the description (the reply is still validated against it all). */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'anyOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'additionalProperties',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/**
 * A JSON Schema in the form Anthropic's structured outputs take: every object closed
 * (`additionalProperties: false`), `oneOf` as `anyOf`, and the constraints it does not take
 * (minimum, maxLength, pattern, ...) written into the description instead.
 */
export function anthropicOutputSchema(schema: JSONSchema): JSONSchema {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: JSONSchema = {};
  const moved: string[] = [];
  const each = (value: unknown) => anthropicOutputSchema(value as JSONSchema);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions')
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, each(v)]));
    else if (key === 'items') out.items = Array.isArray(value) ? value.map(each) : each(value);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf')
      out[key === 'oneOf' ? 'anyOf' : key] = (value as unknown[]).map(each);
    else if (key === 'format' && FORMATS.has(String(value))) out.format = value;
    else if (key === 'minItems' && (value === 0 || value === 1)) out.minItems = value;
    else if (KEPT.has(key)) out[key] = value;
    else if (key !== '$schema') moved.push(`${key}: ${JSON.stringify(value)}`);
  }
  if (out.type === 'object' || out.properties !== undefined) out.additionalProperties = false;
  if (moved.length > 0) out.description = [out.description, `{${moved.join(', ')}}`].filter(Boolean).join('\n\n');
  return out;
}

/**
 * Whether a model takes `output_config.format` (structured outputs): the Claude models of the
 * 4.5 generation on (Opus 4.5, Sonnet 4.5, Haiku 4.5 and later), and any model id it cannot read.
 */
export function takesOutputConfig(modelId: string): boolean {
  const version = /claude-(?:(?:opus|sonnet|haiku)-)?(\d+)(?:-(\d)(?!\d))?/.exec(modelId);
  if (version === null) return true;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 5);
}

/**
 * What a request with an outputSchema adds to the body: `output_config.format` with the schema
 * for a model that takes it, else a forced call of OUTPUT_TOOL_NAME whose input schema is
 * `{ value: <the schema> }` (`tool_choice: any` beside other tools, the tool itself alone; `auto`
 * with extended thinking, which forces no tool).
 */
export function outputFormatOf(
  schema: JSONSchema,
  modelId: string,
  body: Pick<AnthropicRequestBody, 'tools' | 'thinking'>,
): Pick<AnthropicRequestBody, 'output_config' | 'tools' | 'tool_choice'> {
  const strict = anthropicOutputSchema(schema);
  if (takesOutputConfig(modelId)) return { output_config: { format: { type: 'json_schema', schema: strict } } };
  const tool: AnthropicTool = {
    name: OUTPUT_TOOL_NAME,
    description: 'Give your final answer: call this once you are done, with the answer as `value`.',
    input_schema: { type: 'object', properties: { value: strict }, required: ['value'] },
  };
  const others = body.tools ?? [];
  const tool_choice =
    body.thinking !== undefined
      ? { type: 'auto' as const }
      : others.length > 0
        ? { type: 'any' as const }
        : { type: 'tool' as const, name: OUTPUT_TOOL_NAME };
  return { tools: [...others, tool], tool_choice };
}

/** The reply text of a call of OUTPUT_TOOL_NAME: its `value` as JSON. */
export function outputToolText(input: unknown): string {
  const value = (input as { value?: unknown } | null)?.value;
  return JSON.stringify(value === undefined ? input : value) ?? '';
}
