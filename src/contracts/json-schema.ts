/** A JSON Schema object (draft 2020-12), as sent to a provider and checked against tool arguments. */
export type JSONSchema = Record<string, unknown>;

/**
 * A JSON Schema that carries, for the compiler only, the type of the values it accepts (made by
 * jsonSchema<T>()): tool() types a tool's arguments by it, createAgent() types `result.output`.
 */
export type TypedJSONSchema<T> = JSONSchema & {
  /** Never set at run time (a type-only marker): the type the schema stands for. */
  readonly '~lousho.type': T;
};
