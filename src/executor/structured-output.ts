import type { AgentResult } from '../contracts/agent-result.js';
import type { JSONSchema, TypedJSONSchema } from '../contracts/json-schema.js';
import { LoushoError } from '../errors/lousho-error.js';
import { closeObjectSchemas, isStrictSchema } from '../providers/strict-schema.js';
import type { RunState } from './run-state.js';
import type { StandardSchemaV1 } from './tool.js';
import { schemaToJson, validateWithSchema } from './tool-registry.js';

/** What createAgent({ outputSchema }) takes: a Standard Schema validator (zod 4, valibot, arktype) or a JSON Schema. */
export type OutputSchema<T = unknown> = StandardSchemaV1<unknown, T> | TypedJSONSchema<T> | JSONSchema;

/** An outputSchema ready for a run: its JSON Schema for the provider and its check of a reply. */
export interface OutputSpec {
  /** The JSON Schema the provider receives: every object that says nothing of other properties closed (see closeObjectSchemas). */
  json: JSONSchema;
  /** Whether OpenAI's strict mode accepts this schema (every object closed, every property required). */
  strict: boolean;
  /** The schema the reply is validated against. */
  schema: StandardSchemaV1 | JSONSchema;
}

const specs = new WeakMap<object, OutputSpec>();

/** The run's form of an outputSchema (computed once per schema object); undefined when there is none. */
export function outputSpecOf(schema: OutputSchema | undefined): OutputSpec | undefined {
  if (schema === undefined) return undefined;
  let spec = specs.get(schema);
  if (spec === undefined) {
    // Closed objects: the model may add no key the schema does not name, and OpenAI takes it as strict.
    const json = closeObjectSchemas(schemaToJson(schema, 'createAgent(): outputSchema'));
    spec = { json, strict: isStrictSchema(json), schema };
    specs.set(schema, spec);
  }
  return spec;
}

/** The JSON a reply holds: the text itself, or the inside of one Markdown code fence around it. */
function parseReply(text: string): { ok: true; value: unknown } | { ok: false; problems: string[] } {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed)?.[1] ?? trimmed;
  try {
    return { ok: true, value: JSON.parse(fenced) };
  } catch (error) {
    return { ok: false, problems: [`the reply is not JSON (${(error as Error).message})`] };
  }
}

/** Parses and validates a final reply. Resolves to the typed value, or the problems found. */
export async function checkOutput(
  spec: OutputSpec,
  text: string,
): Promise<{ ok: true; value: unknown } | { ok: false; problems: string[] }> {
  const parsed = parseReply(text);
  return parsed.ok ? validateWithSchema(spec.schema, parsed.value) : parsed;
}

/** The user message that asks the model once more for a reply that fits the schema. */
export function outputRetryPrompt(problems: readonly string[]): string {
  return (
    `Your answer does not match the required JSON Schema: ${problems.join('; ')}. ` +
    'Answer again with only a JSON value that matches the schema.'
  );
}

/** The error of a run whose reply broke the schema twice: it carries the raw text and the problems. */
export function outputInvalidError(text: string, problems: readonly string[]): LoushoError {
  return new LoushoError(
    'LOUSHO_OUTPUT_INVALID',
    `The model's answer does not match outputSchema, even after it was asked once more: ${problems.join('; ')}. ` +
      'The raw reply is on error.details.text; loosen the schema, describe it in the instructions, or use a stronger model.',
    { details: { text, problems: [...problems] } },
  );
}

/**
 * The result with its parsed, validated `output`; 'retry' after adding a message that asks
 * for a reply matching the schema (once: `retried`), else throws LOUSHO_OUTPUT_INVALID.
 */
export async function finalOutput(
  spec: OutputSpec,
  result: AgentResult,
  run: RunState,
  retried: boolean,
): Promise<AgentResult | 'retry'> {
  const checked = await checkOutput(spec, result.text);
  if (checked.ok) return { ...result, output: checked.value };
  if (retried) throw outputInvalidError(result.text, checked.problems);
  run.messages.push({ role: 'user', content: outputRetryPrompt(checked.problems) });
  return 'retry';
}
