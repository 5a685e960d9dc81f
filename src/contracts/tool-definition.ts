import type { JSONSchema } from './json-schema.js';

/** A tool as the model sees it: its name, what it does and the JSON schema of its arguments. */
export interface ToolDefinition {
  /** The name the model calls it by: 1-64 letters, digits, '_' or '-'. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: JSONSchema;
}
