/** A JSON Schema object (draft 2020-12), as sent to a provider and checked against tool arguments. */
export type JSONSchema = Record<string, unknown>;
