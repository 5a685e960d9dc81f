import type { JSONSchema } from '../contracts/json-schema.js';
import type { ToolDefinition } from '../contracts/tool-definition.js';
import { configError, LoushoError, toError } from '../errors/lousho-error.js';
import { checkJsonSchema } from './json-schema-check.js';
import { jsonSchemaProblem } from './json-schema-shape.js';
import { checkToolDefinition, type StandardSchemaV1, type Tool } from './tool.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type AnyTool = Tool<unknown, unknown>;

/**
 * Whether a value is a Standard Schema validator (zod 4, valibot, arktype): an object or a
 * function (arktype's types are callable) with the `~standard` property.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}

/** What to install or pass for a validator of `vendor` that gives no JSON Schema. */
function jsonSchemaAdvice(vendor: string): { advice: string; install?: string } {
  if (vendor === 'valibot')
    return {
      advice:
        "valibot gives one through @valibot/to-json-schema: npm install @valibot/to-json-schema, then pass toStandardJsonSchema(schema) (import { toStandardJsonSchema } from '@valibot/to-json-schema')",
      install: '@valibot/to-json-schema',
    };
  if (vendor === 'zod') return { advice: 'zod gives one from version 4.2 on: npm install zod@^4.2' };
  if (vendor === 'arktype') return { advice: 'arktype gives one in its recent 2.x versions: npm install arktype@^2.2' };
  return { advice: 'use a validator that implements Standard JSON Schema (~standard.jsonSchema)' };
}

/**
 * A schema as JSON Schema: a plain JSON Schema as it is (refused when its keywords do not have
 * the draft's shapes, such as `type: 'objekt'`), a Standard Schema validator through
 * Standard JSON Schema (`~standard.jsonSchema.input`), or zod's toJSONSchema(). `what` names it
 * in the error ("Tool 'x'"). A validator that gives none is refused with LOUSHO_CONFIG_INVALID
 * saying what to install or pass (details.vendor, details.install).
 */
export function schemaToJson(schema: StandardSchemaV1 | JSONSchema, what: string): JSONSchema {
  if (!isStandardSchema(schema)) {
    const problem = jsonSchemaProblem(schema);
    if (problem === undefined) return schema;
    throw new LoushoError(
      'LOUSHO_CONFIG_INVALID',
      `${what}: its schema is no JSON Schema (${problem}). Write it as JSON Schema (draft 2020-12), or pass a validator such as a zod schema.`,
      { details: { problem } },
    );
  }
  const vendor = schema['~standard'].vendor;
  const standard = schema['~standard'] as { jsonSchema?: { input?: (o: { target: string }) => JSONSchema } };
  let json: JSONSchema | undefined;
  try {
    json = standard.jsonSchema?.input?.({ target: 'draft-2020-12' });
    if (json === undefined) {
      const convert = (schema as { toJSONSchema?: () => JSONSchema }).toJSONSchema;
      json = typeof convert === 'function' ? convert.call(schema) : undefined;
    }
  } catch (error) {
    throw new LoushoError(
      'LOUSHO_CONFIG_INVALID',
      `${what}: its ${vendor} schema cannot be written as JSON Schema: ${toError(error).message}. ` +
        'Leave out what JSON cannot carry (transforms, custom checks), or pass a plain JSON Schema with jsonSchema<T>().',
      { cause: error, details: { vendor } },
    );
  }
  if (json === undefined) {
    const { advice, install } = jsonSchemaAdvice(vendor);
    throw new LoushoError(
      'LOUSHO_CONFIG_INVALID',
      `${what}: its ${vendor} schema gives no JSON Schema, which the model needs to see. ${advice[0]?.toUpperCase()}${advice.slice(1)}; or pass a plain JSON Schema with jsonSchema<T>().`,
      { details: { vendor, ...(install === undefined ? {} : { install }) } },
    );
  }
  const { $schema: _drop, ...rest } = json;
  return rest;
}

/** The JSON Schema of a tool's arguments, as sent to the model. */
export function toolJsonSchema(tool: AnyTool): JSONSchema {
  return schemaToJson(tool.parameters, `Tool '${tool.name}'`);
}

/** Checks a value against a Standard Schema validator or a JSON Schema. Resolves to the value to use, or the problems. */
export async function validateWithSchema(
  schema: StandardSchemaV1 | JSONSchema,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; problems: string[] }> {
  if (isStandardSchema(schema)) {
    const result = await schema['~standard'].validate(value);
    if (result.issues === undefined) return { ok: true, value: result.value };
    return {
      ok: false,
      problems: result.issues.map((issue) => {
        const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
        return path === '' ? issue.message : `${path}: ${issue.message}`;
      }),
    };
  }
  const problems = checkJsonSchema(value, schema);
  return problems.length === 0 ? { ok: true, value } : { ok: false, problems };
}

/** Validates a tool's arguments. Resolves to the value to call execute() with, or the problems. */
export function validateToolArguments(
  tool: AnyTool,
  args: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; problems: string[] }> {
  return validateWithSchema(tool.parameters, args);
}

/** The tools of a run, by name, with their definitions for the model. */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  #definitions: ToolDefinition[] | undefined;

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool. Throws LOUSHO_CONFIG_INVALID on a bad name, a missing execute() or a duplicate. */
  register(tool: AnyTool): this {
    checkToolDefinition(tool);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw configError(`Tool name ${JSON.stringify(tool.name)} is invalid: use 1-64 letters, digits, '_' or '-'.`);
    }
    if (typeof tool.execute !== 'function') throw configError(`Tool '${tool.name}' has no execute() function.`);
    if ((typeof tool.parameters !== 'object' || tool.parameters === null) && !isStandardSchema(tool.parameters)) {
      throw configError(
        `Tool '${tool.name}': parameters must be a Standard Schema validator (e.g. zod) or a JSON Schema object.`,
      );
    }
    if (this.#tools.has(tool.name)) throw configError(`Two tools are named '${tool.name}'; tool names must be unique.`);
    toolJsonSchema(tool); // fail now, not at the first model call
    this.#tools.set(tool.name, tool);
    this.#definitions = undefined;
    return this;
  }

  /** The tool named `name`, or undefined. */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Every tool, in the order they were registered. */
  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#tools.size;
  }

  /** The definitions sent to the model; the same array (and objects) until a tool is added. */
  definitions(): ToolDefinition[] {
    this.#definitions ??= this.list().map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: toolJsonSchema(tool),
    }));
    return this.#definitions;
  }
}
