import type { AgentEvent } from '../contracts/agent-event.js';
import type { JSONSchema, TypedJSONSchema } from '../contracts/json-schema.js';
import { checkNumber, checkOptions } from '../errors/check-options.js';
import { configError } from '../errors/lousho-error.js';

/** The Standard Schema interface (standardschema.dev) that zod 4, valibot and arktype implement. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The validator's Standard Schema properties, under the key the spec reserves. */
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The properties of a Standard Schema validator. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

/** The result of a Standard Schema validation. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** One problem a Standard Schema validator found. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What a tool's execute() receives besides its arguments. */
export interface ToolContext {
  /** The id of the call being answered. */
  toolCallId: string;
  /** Fires when the run is aborted; stop work and throw. */
  abortSignal?: AbortSignal;
  /** The id of the run that made the call (absent when the tool is called outside a run). */
  runId?: string;
  /** The step whose reply made the call, from 1. */
  step?: number;
  /** Reports an event to the run's listeners while the call runs (an MCP tool's `mcp.progress`, say). */
  emit?: (event: AgentEvent) => void;
}

/**
 * A tool the model can call: its name, a description, the arguments' schema (a Standard
 * Schema validator such as zod 4, or a plain JSON Schema) and the function that runs it.
 * What execute() returns is sent to the model as text (strings as they are, anything
 * else as JSON); what it throws becomes an error result the model can read.
 * `needsApproval` makes a run stop before a call until it is approved; `idempotent` lets a
 * resumed session run a call again that a crash interrupted.
 */
export interface Tool<Args = unknown, Result = unknown> {
  /** The name the model calls it by: 1-64 letters, digits, '_' or '-', unique among the agent's tools. */
  name: string;
  /** What the tool does and when to use it, sent to the model. */
  description?: string;
  /** The arguments' schema: a Standard Schema validator (zod 4, valibot, arktype) or a JSON Schema. */
  parameters: StandardSchemaV1<unknown, Args> | JSONSchema;
  /** Runs the call with its validated arguments; the value returned (or the error thrown) is what the model reads. */
  execute(args: Args, context: ToolContext): Result | Promise<Result>;
  /**
   * Ask before running: true for every call, or a function of the (valid) arguments. A run that
   * reaches such a call stops before it with `status: 'awaiting_approval'` (see ToolApproval).
   */
  needsApproval?: boolean | ApprovalCheck<Args>;
  /**
   * Running the same call twice does no harm. A session that crashed while the call was
   * running runs it again on resume() only when this is true; otherwise the model gets an
   * error result saying the call was interrupted.
   */
  idempotent?: boolean;
  /**
   * The longest result, in characters, the transcript keeps: a longer one keeps its first part
   * and ends with a `[cut: ...]` marker saying how long it was, so the model, the session's log
   * and every later request hold only that. DEFAULT_MAX_TOOL_RESULT_CHARS (2,000,000) when absent;
   * Infinity keeps every result whole.
   */
  maxResultChars?: number;
}

/** The options every tool() form takes besides its schema and execute(). */
interface ToolExtras<Args> {
  name: string;
  description?: string;
  needsApproval?: boolean | ApprovalCheck<Args>;
  idempotent?: boolean;
  maxResultChars?: number;
}

/**
 * Decides from a call's arguments whether it needs approval. (Declared through a method so a
 * tool of any argument type fits where a Tool<unknown> is expected, as execute() does.)
 */
export type ApprovalCheck<Args> = {
  /** Resolves to true when the call must wait for approval. */
  check(args: Args, context: ToolContext): boolean | Promise<boolean>;
}['check'];

type OutputOf<S> = S extends StandardSchemaV1<unknown, infer O> ? O : never;

/**
 * The type of the values a schema accepts: a Standard Schema validator's output, the T of
 * jsonSchema<T>(), `unknown` for a plain JSON Schema.
 */
export type InferSchema<S> =
  S extends StandardSchemaV1<unknown, infer O> ? O : S extends TypedJSONSchema<infer T> ? T : unknown;

/**
 * A JSON Schema typed as describing T, so tool() types a tool's arguments and createAgent() its
 * `result.output` by it. The schema is returned as it is; nothing checks that T matches it.
 *
 * @example
 * const weather = tool({
 *   name: 'get_weather',
 *   parameters: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
 *   execute: ({ city }) => `Sunny in ${city}`,
 * });
 */
export function jsonSchema<T>(schema: JSONSchema): TypedJSONSchema<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw configError('jsonSchema() takes a JSON Schema object such as { type: "object", properties: { ... } }.');
  return schema as TypedJSONSchema<T>;
}

/**
 * Defines a tool with its argument type inferred from a Standard Schema validator
 * (zod 4, valibot, arktype), or typed as an object for a plain JSON Schema.
 *
 * @example
 * const read = tool({
 *   name: 'read_file',
 *   description: 'Read a file',
 *   parameters: z.object({ path: z.string() }),
 *   execute: async ({ path }) => readFile(path, 'utf8'),
 * });
 */
export function tool<S extends StandardSchemaV1, R>(
  definition: ToolExtras<OutputOf<S>> & {
    parameters: S;
    execute(args: OutputOf<S>, context: ToolContext): R | Promise<R>;
  },
): Tool<OutputOf<S>, R>;
export function tool<A, R>(
  definition: ToolExtras<A> & {
    parameters: TypedJSONSchema<A>;
    execute(args: A, context: ToolContext): R | Promise<R>;
  },
): Tool<A, R>;
export function tool<R>(
  definition: ToolExtras<Record<string, unknown>> & {
    parameters: JSONSchema;
    execute(args: Record<string, unknown>, context: ToolContext): R | Promise<R>;
  },
): Tool<Record<string, unknown>, R>;
export function tool(definition: Tool<unknown, unknown>): Tool<unknown, unknown> {
  checkToolDefinition(definition);
  return definition;
}

/** What a tool definition may hold. */
const TOOL_KEYS = ['name', 'description', 'parameters', 'execute', 'needsApproval', 'idempotent', 'maxResultChars'];

/**
 * Throws LOUSHO_CONFIG_INVALID on a definition that is not a tool: an unknown key (the AI
 * SDK's `inputSchema` is named, with the key to use), a missing parameters schema or execute().
 */
export function checkToolDefinition(definition: unknown): void {
  if (typeof definition !== 'object' || definition === null)
    throw configError('A tool is an object { name, description, parameters, execute }.');
  const d = definition as Record<string, unknown>;
  const name = typeof d.name === 'string' ? `'${d.name}'` : '';
  if ('inputSchema' in d) {
    throw configError(
      `Tool ${name}: use parameters for the arguments' schema (inputSchema is the AI SDK's name for it): tool({ name, description, parameters: z.object({ ... }), execute }).`,
      { option: 'inputSchema' },
    );
  }
  checkOptions(definition, `Tool ${name}`.trim(), TOOL_KEYS as never);
  if (d.maxResultChars !== Number.POSITIVE_INFINITY)
    checkNumber(d.maxResultChars, 'maxResultChars', `Tool ${name}`.trim(), { min: 1, integer: true });
}
