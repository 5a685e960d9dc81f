import type { JSONSchema } from '../providers/types.js';

/** The Standard Schema interface (standardschema.dev) that zod 4, valibot and arktype implement. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
      }>;
    };

/** What a tool's execute() receives besides its arguments. */
export interface ToolContext {
  /** The id of the call being answered. */
  toolCallId: string;
  /** Fires when the run is aborted; stop work and throw. */
  abortSignal?: AbortSignal;
}

/**
 * A tool the model can call: its name, a description, the arguments' schema (a Standard
 * Schema validator such as zod 4, or a plain JSON Schema) and the function that runs it.
 * What execute() returns is sent to the model as text (strings as they are, anything
 * else as JSON); what it throws becomes an error result the model can read.
 */
export interface Tool<Args = unknown, Result = unknown> {
  name: string;
  description?: string;
  parameters: StandardSchemaV1<unknown, Args> | JSONSchema;
  execute(args: Args, context: ToolContext): Result | Promise<Result>;
}
